/*
 * always_call.c: a complete ACPC bot in C with no library but libc, to show that the protocol is
 * all a bot needs. It checks or calls at every turn, in any limit game for 2 or more players and
 * in heads-up no-limit (it does not track all-in players, which only matters with 3 or more).
 *
 *   gcc -O2 -o always_call examples/always_call.c
 *   ./always_call [--first 1,0,0,0] HOST PORT
 *
 * --first gives the first position to act in each round (0-based; default 0 in every round, as in
 * Kuhn and Leduc; heads-up hold'em with reverse blinds is 1,0,0,0).
 *
 * The protocol: send "VERSION:2.0.0" (with " token=SECRET" when $SHOWDOWN_SEAT_TOKEN is set), then read MATCHSTATE:<position>:<hand>:<betting>:<cards>
 * lines. Every seat gets the state before every action, so the bot works out whose turn it is:
 * starting from the round's first player, each action passes the turn to the next player who has
 * not folded. The hand is over when one player is left or when opponents' cards are shown. On our
 * turn we send back the exact line followed by ":c".
 */
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_LINE 4096
#define MAX_PLAYERS 10
#define MAX_ROUNDS 4

static int first_player[MAX_ROUNDS];

/* Our position if it is our turn in this state, else -1. */
static int must_act(const char *line) {
    int position, hand;
    char betting[MAX_LINE], cards[MAX_LINE];
    if (sscanf(line, "MATCHSTATE:%d:%d:%[^:]:%s", &position, &hand, betting, cards) != 4) {
        /* the betting is empty at the start of a hand */
        if (sscanf(line, "MATCHSTATE:%d:%d::%s", &position, &hand, cards) != 3) return -1;
        betting[0] = '\0';
    }
    /* players = hole-card groups; shown = groups with cards in them */
    int players = 1, shown = 0, group_len = 0;
    for (const char *c = cards; *c && *c != '/'; c++) {
        if (*c == '|') { players++; shown += group_len > 0; group_len = 0; }
        else group_len++;
    }
    shown += group_len > 0;
    if (shown > 1 || players > MAX_PLAYERS) return -1; /* a showdown: the hand is over */

    int folded[MAX_PLAYERS] = {0}, active = players, round = 0;
    int p = first_player[0] % players;
    for (const char *c = betting; *c; c++) {
        if (*c == '/') {
            round++;
            p = first_player[round < MAX_ROUNDS ? round : MAX_ROUNDS - 1] % players;
            while (folded[p]) p = (p + 1) % players;
            continue;
        }
        if (*c >= '0' && *c <= '9') continue; /* a no-limit size */
        if (*c == 'f') { folded[p] = 1; active--; }
        do p = (p + 1) % players; while (folded[p] && active > 0);
    }
    if (active < 2) return -1; /* everyone else folded */
    while (folded[p]) p = (p + 1) % players;
    return p == position ? position : -1;
}

int main(int argc, char **argv) {
    int arg = 1;
    if (argc > 2 && strcmp(argv[1], "--first") == 0) {
        char *s = argv[2];
        for (int r = 0; r < MAX_ROUNDS; r++) {
            first_player[r] = atoi(s);
            char *comma = strchr(s, ',');
            if (comma) s = comma + 1;
        }
        arg = 3;
    }
    if (argc - arg != 2) {
        fprintf(stderr, "usage: %s [--first P0,P1,...] HOST PORT\n", argv[0]);
        return 2;
    }
    struct addrinfo hints = {0}, *res;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(argv[arg], argv[arg + 1], &hints, &res) != 0) {
        fprintf(stderr, "cannot resolve %s\n", argv[arg]);
        return 1;
    }
    int fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
    if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) < 0) {
        perror("connect");
        return 1;
    }
    freeaddrinfo(res);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

    FILE *in = fdopen(fd, "r");
    /* showdown match gives each bot it starts a secret for its seat: send it with the version */
    const char *token = getenv("SHOWDOWN_SEAT_TOKEN");
    char version[160];
    if (token && *token && strlen(token) < 100)
        snprintf(version, sizeof version, "VERSION:2.0.0 token=%s\r\n", token);
    else
        snprintf(version, sizeof version, "VERSION:2.0.0\r\n");
    if (write(fd, version, strlen(version)) < 0) return 1;
    char line[MAX_LINE + 4];
    while (fgets(line, MAX_LINE, in)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == ';') continue;
        if (must_act(line) < 0) continue;
        strcat(line, ":c\r\n");
        size_t n = strlen(line);
        if (write(fd, line, n) != (ssize_t)n) return 1;
    }
    return 0; /* EOF: the match is over */
}
