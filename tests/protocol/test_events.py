"""Hand events: typed, and written exactly as the dealer has always written them."""

from __future__ import annotations

import json

import pytest

from showdown.errors import ProtocolError
from showdown.protocol.events import (
    COUNT_KINDS,
    DEALER_CHOSE,
    NOT_ITS_OWN_ACTION,
    EventKind,
    HandEvent,
    chosen_why,
    seats_with,
)
from showdown.protocol.logfile import HandRecord

# The event shapes the dealer wrote before events were typed (key order included): what logs hold.
WRITTEN = [
    '{"kind":"timeout","seat":1,"name":"b","message":"timeout: played f","played":"f","at":"cr"}',
    '{"kind":"disconnect","seat":0,"name":"a","message":"disconnect: played c","played":"c","at":""}',
    '{"kind":"invalid","seat":0,"name":"a","message":"invalid action, changed to call","line":"MATCHSTATE:0:3::Ks|:x"}',
    '{"kind":"ignored","seat":1,"name":"b","message":"bad state format in response","line":"junk"}',
    '{"kind":"connection_lost","seat":1,"name":"b","message":"connection lost"}',
    '{"kind":"reconnected","seat":1,"name":"b","message":"seat reconnected"}',
    '{"kind":"gone","seat":0,"name":"a","message":"seat given up on: played check/fold until the match ends"}',
    '{"kind":"more","seat":-1,"name":"","message":"more events in this hand","count":17}',
]


@pytest.mark.parametrize("text", WRITTEN)
def test_an_event_reads_and_writes_back_byte_for_byte(text: str) -> None:
    event = HandEvent.from_dict(json.loads(text))
    assert isinstance(event.kind, EventKind)
    assert json.dumps(event.as_dict(), separators=(",", ":")) == text


def test_a_record_with_events_round_trips_with_typed_events() -> None:
    line = ('{"hand":3,"game":"kuhn","players":["a","b"],"seats":[0,1],"hole":["Ks","Qs"],"board":[],'
            f'"betting":"cf","values":[1.0,-1.0],"events":[{WRITTEN[0]},{WRITTEN[7]}]}}')
    record = HandRecord.from_json(line)
    assert [e.kind for e in record.events] == [EventKind.TIMEOUT, EventKind.MORE]
    assert record.to_json() == line


@pytest.mark.parametrize("bad", ['{"kind":"nap","seat":0}', '{"seat":0}', '{"kind":"timeout","seat":"0"}', '{"kind":"more","count":1.5}'])
def test_a_bad_event_is_one_protocol_error_naming_the_record(bad: str) -> None:
    with pytest.raises(ProtocolError, match="bad"):
        HandEvent.from_dict(json.loads(bad))
    line = ('{"hand":0,"game":"kuhn","players":["a","b"],"seats":[0,1],"hole":["Ks","Qs"],"board":[],'
            f'"betting":"cf","values":[1.0,-1.0],"events":[{bad}]}}')
    with pytest.raises(ProtocolError, match="bad hand record"):
        HandRecord.from_json(line)


def test_the_kinds_are_spelled_once_and_grouped() -> None:
    assert [k.value for k in COUNT_KINDS] == ["timeout", "disconnect", "invalid", "bad_action", "resized",
                                              "ignored", "dropped", "connection_lost", "rejected"]  # fmt: skip
    assert DEALER_CHOSE < NOT_ITS_OWN_ACTION and EventKind.RESIZED in NOT_ITS_OWN_ACTION - DEALER_CHOSE
    assert chosen_why({"invalid": 1990, "timeout": 1}) == "out of time: 1 action; invalid or no reply: 1,990 actions"
    events = [HandEvent.from_dict(json.loads(t)) for t in WRITTEN]
    assert seats_with(events, DEALER_CHOSE) == {0, 1} and seats_with(events, frozenset({EventKind.MORE})) == set()
