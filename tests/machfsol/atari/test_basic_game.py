"""The generator of MACHFSOL.1/.2: variant markers, line checks, what differs between games."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from a8.basic import tokenize
from a8.basic.atascii import from_text
from a8.basic.program import Program
from a8.basic.tokens import TOK_REM
from a8.emu.keys import named_keystroke
from machfsol.atari import basic_game
from machfsol.atari.basic_game import BasicSourceError, generate, parse_source, to_atascii
from machfsol.atari.constant_pool import pool_constants
from machfsol.atari.shuffle import routine
from machfsol.atari.test_mode import AtariTestModeError, config_text, key_character, run_deals
from machfsol.atari.test_player import Deal, expected_steps
from machfsol.errors import MachfsolError

SMALL = """\
# a source-only comment
10 REM TITLE
#V1 20 PRINT "ONE"
#V2 20 PRINT "TWO"
30 GOTO 10

40 TRAP 40000:GOSUB 50
50 RETURN
"""


def test_variant_lines_go_only_to_their_listing() -> None:
    one = generate(1, source=SMALL)
    two = generate(2, source=SMALL)
    assert one == '10 REM TITLE\n20 PRINT "ONE"\n30 GOTO 10\n40 TRAP 40000:GOSUB 50\n50 RETURN\n'
    assert two == one.replace('"ONE"', '"TWO"')


def test_comments_and_blank_lines_are_dropped() -> None:
    assert "comment" not in generate(1, source=SMALL)


def test_stripping_remarks_redirects_jumps_to_the_next_line() -> None:
    source = "10 REM START\n20 X=1\n30 REM SUB\n40 RETURN\n50 GOSUB 30:ON X GOTO 10,30\n"
    source += '60 IF X THEN 10\n70 PRINT "GOTO 30":TRAP 10:RESTORE 30\n'
    assert generate(1, source=source, strip_remarks=True) == (
        "20 X=1\n40 RETURN\n50 GOSUB 40:ON X GOTO 20,40\n"
        '60 IF X THEN 20\n70 PRINT "GOTO 30":TRAP 20:RESTORE 40\n'
    )
    assert "GOSUB 30" in generate(1, source=source)


def test_stripping_remarks_cuts_a_final_rem_statement_but_not_strings_or_data() -> None:
    source = '10 X=1:REM WHY\n20 PRINT "A:REM B":REM C\n30 DATA 1,:REM,2\n40 IF X THEN Y=2: REM Z\n'
    assert generate(1, source=source, strip_remarks=True) == (
        '10 X=1\n20 PRINT "A:REM B"\n30 DATA 1,:REM,2\n40 IF X THEN Y=2\n'
    )
    assert generate(1, source=source) == source


def test_the_disk_carries_the_programs_without_remarks() -> None:
    """program_listing is what `machfsol build` tokenizes: no REM token, same lines else
    (the numbers pooled, tests/machfsol/atari/test_constant_pool.py)."""
    for variant in basic_game.VARIANTS:
        listing = basic_game.program_listing(variant)
        overlay = generate(variant, strip_remarks=True, part="overlay")
        program = generate(variant, strip_remarks=True, part="program")
        assert listing == pool_constants(program, also_names=overlay)
        assert "REM" not in re.sub(r'"[^"]*"', '""', listing)
        for line in Program.from_bytes(tokenize(listing)).lines:
            assert TOK_REM not in _statement_tokens(line.data), line.number


OVERLAID = """\
10 REM GAME
20 X=1:GOSUB 100
30 GOTO 20
#T 25 REM TEST
#T 7000 GOSUB 25:GOSUB 100:GOTO 30
100 RETURN
"""


def test_overlay_lines_are_left_out_of_the_program_and_listed_apart() -> None:
    assert generate(1, source=OVERLAID, part="program") == (
        "10 REM GAME\n20 X=1:GOSUB 100\n30 GOTO 20\n100 RETURN\n"
    )
    assert generate(1, source=OVERLAID, part="overlay") == (
        "25 REM TEST\n7000 GOSUB 25:GOSUB 100:GOTO 30\n"
    )
    assert generate(1, source=OVERLAID).splitlines()[2] == "25 REM TEST"
    # The overlay's jump to its stripped REM lands where it lands in the merged program.
    assert basic_game.overlay_listing(OVERLAID) == "7000 GOSUB 30:GOSUB 100:GOTO 30\nGOTO 7000\n"


def test_a_program_line_may_not_jump_into_the_overlay() -> None:
    with pytest.raises(BasicSourceError, match="line 10 jumps to missing line 7000"):
        generate(1, source="10 GOTO 7000\n#T 7000 END\n", part="program")


def test_a_program_line_may_jump_into_the_overlay_only_in_test_mode() -> None:
    source = "10 IF TM THEN GOSUB 7000\n20 END\n#T 7000 RETURN\n"
    assert generate(1, source=source, part="program") == "10 IF TM THEN GOSUB 7000\n20 END\n"
    with pytest.raises(BasicSourceError, match="line 10 jumps to missing line 7000"):
        generate(1, source="10 IF X THEN GOSUB 7000\n#T 7000 RETURN\n", part="program")


def test_the_program_redirects_a_jump_past_the_overlay_as_it_runs_without_it() -> None:
    source = "10 GOTO 20\n20 REM X\n#T 25 END\n30 END\n"
    assert generate(1, source=source, strip_remarks=True, part="program") == (
        "10 GOTO 30\n30 END\n"
    )


def test_the_overlay_must_start_the_test_mode_and_be_the_same_for_both_variants() -> None:
    with pytest.raises(BasicSourceError, match="no line 7000"):
        basic_game.overlay_listing("#T 10 END\n")
    with pytest.raises(BasicSourceError, match="differs between the variants"):
        # its jump to its REM lands on a line each variant has its own
        basic_game.overlay_listing("#T 7000 GOTO 7001\n#T 7001 REM\n#V1 7002 END\n#V2 7003 END\n")


def test_the_real_overlay_holds_the_test_mode_and_nothing_the_game_runs() -> None:
    overlay = basic_game.overlay_listing()
    numbers = [int(line.split(" ", 1)[0]) for line in overlay.splitlines()[:-1]]
    assert overlay.endswith("\nGOTO 7000\n")
    assert 7000 in numbers and 7600 not in numbers  # 7600 is a REM: stripped
    program = {int(line.split(" ", 1)[0]) for line in basic_game.program_listing(2).splitlines()}
    assert not program & set(numbers)
    assert all(n in range(270, 285) or n in range(7000, 8000) or n >= 11150 for n in numbers)


def _statement_tokens(line: bytes) -> list[int]:
    """The statement tokens of a tokenized line: from offset 3, each statement starts
    with the offset of the next one, then its token."""
    tokens, offset = [], 3
    while offset < line[2]:
        tokens.append(line[offset + 1])
        offset = line[offset]
    return tokens


def test_a_remark_at_the_end_cannot_be_a_target() -> None:
    with pytest.raises(BasicSourceError, match="line 10 jumps to missing line 20"):
        generate(1, source="10 GOTO 20\n20 REM END\n", strip_remarks=True)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#V3 10 PRINT\n", r"machfsol.bas:1: no variant 3"),
        ("#IF V1\n", r"machfsol.bas:1: unknown directive '#IF'"),
        ("PRINT 1\n", r"machfsol.bas:1: a BASIC line must start with its line number"),
        ("10 PRINT\n10 END\n", r"machfsol.bas:2: line 10 already defined at machfsol.bas:1"),
        ("#V1 10 A=1\n10 B=2\n", r"machfsol.bas:2: line 10 already defined at machfsol.bas:1"),
        ("40000 END\n", r"machfsol.bas:1: line number 40000 is above 32767"),
        ("10 GOSUB 20\n", r"machfsol.bas:1: line 10 jumps to missing line 20"),
        ("10 ON X GOTO 10,30\n", r"machfsol.bas:1: line 10 jumps to missing line 30"),
        ('10 X=USR(ADR("{CODE x.s}"))\n', r"machfsol.bas:1: no machine code 'x.s' \(known: "),
    ],
)
def test_malformed_sources_give_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(BasicSourceError, match=message) as caught:
        generate(1, source=text)
    assert "\n" not in str(caught.value)


def test_a_string_mentioning_goto_is_not_a_jump() -> None:
    assert generate(1, source='10 PRINT "GOTO 99"\n') == '10 PRINT "GOTO 99"\n'


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(BasicSourceError, match="no variant 3"):
        generate(3, source=SMALL)


def test_atascii_uses_atari_line_ends() -> None:
    assert to_atascii("10 END\n20 END\n") == b"10 END\x9b20 END\x9b"


def test_a_code_marker_becomes_the_machine_code_and_atascii_its_bytes() -> None:
    listing = generate(1, source='10 X=USR(ADR("{CODE shuffle.s routine}"),52,0,1,0)\n')
    assert listing.startswith('10 X=USR(ADR("{$') and "CODE" not in listing
    data = to_atascii(listing)
    assert data == b'10 X=USR(ADR("' + routine().string + b'"),52,0,1,0)\x9b'


# ------------------------------------------------------------------ the real source


def _lines(listing: str) -> dict[int, str]:
    return {int(line.split(" ", 1)[0]): line for line in listing.splitlines()}


def test_the_two_games_differ_only_in_title_king_rule_and_distance() -> None:
    one, two = _lines(generate(1)), _lines(generate(2))
    assert one.keys() == two.keys()
    differing = sorted(number for number in one if one[number] != two[number])
    tagged = sorted(
        line.number
        for line in parse_source(basic_game.read_source().text)
        if len(line.variants) == 1
    )
    assert differing == sorted(set(tagged))
    for number in differing:
        # Titles, the King-pile rule (its table FA, FB, TA, TB from BA+1578, written by
        # series.s, and in variant 2 a suit's first values in it), and the policy's
        # "distance" of a card, which looks at the card's own King pile in variant 1
        # and at every King pile in variant 2 (KH(K): the rank of King pile K's top).
        marks = ("REM", "TL$", "KH(", "X=1+NR*(1-RD)", "FB(0)=52", "NR,X+NR+NR", "+2202,")
        marks += ("Y+624,NR,X,1,6",)
        marks += ("KING PILES: DOWN FROM THE KING", "ACES AND KINGS GO UP")  # the help
        assert any(mark in one[number] or mark in two[number] for mark in marks), number
    # The King-pile rule is the table of cards each card may go on: the same suit's next
    # rank in variant 1 (and no second card: FB is 52 for all, set with TB at 11045), the
    # two next-rank cards of the other colour in variant 2 (the other colour's first
    # suit, then two suits on: rank + 1 + NR * (1 - RD), + 2 NR), written by series.s
    # (USR(Q,A,N,V,D,6): N numbers V, V+D... from A; FA from BA+2202, FB 1578, TA 2514,
    # TB 1890, as 11040's comment lays them out; in variant 2 from Y, suit S's FB(J)).
    assert any("X=USR(Q,BA+2202,N,1,1,6):X=USR(Q,BA+2520,N-1,0,1,6)" in one[n] for n in differing)
    assert any("FB(0)=52:" in one[n] and "TB(0)=53:" in one[n] for n in differing)
    assert any("X=1+NR*(1-RD):Y=BA+6*J+1578" in two[n] for n in differing)
    assert any(
        "G=USR(Q,Y,NR,X+NR+NR,1,6):G=USR(Q,Y+312,NR,X+NR+NR-2,1,6)" in two[n] for n in differing
    )
    assert any("G=USR(Q,Y+624,NR,X,1,6):G=USR(Q,Y+942,NR1,X-1,1,6)" in two[n] for n in differing)


def test_the_real_source_generates_plain_rev_c_lines() -> None:
    for variant in basic_game.VARIANTS:
        for stripped in (False, True):
            listing = generate(variant, strip_remarks=stripped)
            data = to_atascii(listing)
            assert data.endswith(b"\x9b")
            for line in listing.splitlines():
                assert re.match(r"^\d+ \S", line), line
                if "{$" in line:
                    # The machine code's strings: read by ENTER from a file, whose lines
                    # BASIC takes up to its buffer's 255 bytes (they cannot be typed).
                    assert len(from_text(line)) < 255, line[:40]
                else:
                    # Three screen lines of 38 characters: what the Atari's editor takes
                    # (counted as the Atari's characters: {DELLINE} is one).
                    assert len(from_text(line)) <= 114, line
            numbers = [int(line.split()[0]) for line in listing.splitlines()]
            assert numbers == sorted(numbers)


# ------------------------------------------------------------------ test-mode configuration


def test_test_mode_configuration_spells_each_steps_keys_and_ends_each_deal() -> None:
    deals = [Deal(52, 12), Deal(40, 7, "L", spanish=True)]
    steps = list(expected_steps(1, deals))
    lines = config_text(deals, steps).split(b"\x9b")
    assert lines[0] == b"MFTEST 5" and lines[-2:] == [b"END", b""]
    assert lines[1] == b"S 52 F U 001 002"  # deal 1 of 2
    # deal 12: N 1 2 RETURN (N is key code 35, 1 is 31, 2 is 30, RETURN 12: each plus 48)
    assert lines[2] == b"D " + bytes([35 + 48, 31 + 48, 30 + 48, 12 + 48])
    first_t = lines.index(b"T")
    # a line a step that types keys: not the first table, nor the screens a step's
    # keys pass on their way (the prompt before each key after N)
    assert first_t == 2 + sum(1 for step in steps[0] if step.keys)
    # deal 2: as a player changes the deck, its number first (the overlay types CAPS,
    # the S line's case), then O, D three times, S, RETURN on a step line of their
    # own; the S line names the table before them, which the overlay leaves as it is
    assert lines[first_t + 1] == b"S 52 F L 002 002"
    number, options = [step for step in steps[1] if step.keys][:2]
    assert number.keys == ("CAPS", "N", "7", "RETURN") and number.from_state == 1
    assert options.keys == ("O", "D", "D", "D", "S", "RETURN") and options.from_state == 0
    assert lines[first_t + 2][:2] == b"D "  # the number's step deals: its time is the deal's
    assert lines[first_t + 3][:2] == b"K "  # the options, then the moves: no "B"
    assert not any(line.startswith(b"B ") for line in lines[first_t:])
    assert lines.count(b"T") == 2
    # deal 1 is on the table at the start: its first move begins it
    first = config_text([Deal(52, 1)], list(expected_steps(1, [Deal(52, 1)]))).split(b"\x9b")
    assert first[2].startswith(b"B ")
    # the screens after each deal's S line show which deal of how many is in play (from
    # the end of its first step: not on that step's way, the prompt or the options)
    assert steps[0][0].screen is not None and steps[0][0].screen.progress is None
    after = [[s for s in deal[1:] if s.keys and s.screen] for deal in steps]
    assert all(s.screen and s.screen.progress == (1, 2) for s in after[0])
    assert all(s.screen and s.screen.progress == (2, 2) for s in after[1])
    passing = [s.screen for s in steps[0] + steps[1] if not s.keys and s.screen]
    # (deal 2's prompt and its options pages, on the way of steps typed before its
    # first table is shown, still show deal 1 of 2)
    assert {screen.progress for screen in passing} == {None, (1, 2)}
    shown = next(s.screen for s in steps[1] if s.keys and s.screen is not None)
    assert bytes(shown.rows[23]).rstrip() == b"TEST DEAL 2 OF 2"


def test_a_deal_of_too_many_steps_is_refused() -> None:
    (steps,) = expected_steps(1, [Deal(52, 7, "HU")])
    with pytest.raises(AtariTestModeError, match="at most 450 screens a deal"):
        config_text([Deal(52, 7, "HU")], [steps * 3])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Deal(50, 1), "deck size 50"),
        (lambda: Deal(52, 0), "seed 0"),
        (lambda: Deal(52, 2**31 - 1), "seed"),
        (lambda: Deal(52, 1, "Z"), "extras 'Z'"),
    ],
)
def test_test_mode_refuses_bad_deals(make: Callable[[], Deal], message: str) -> None:
    with pytest.raises(MachfsolError, match=message):
        make()


def test_a_key_with_control_cannot_be_typed_by_the_test_mode() -> None:
    """SHIFT is typed (``?`` is SHIFT-/), CONTROL is not: the configuration's one
    character per key has room for codes below 128 only."""
    assert key_character("SHIFT-A") == chr(48 + 64 + named_keystroke("A").code)
    with pytest.raises(MachfsolError, match="no key with CONTROL"):
        key_character("CTRL-A")


@pytest.mark.parametrize("variant", basic_game.VARIANTS)
def test_the_programs_tokenize_as_atari_basic(variant: int) -> None:
    """a8.basic knows Atari BASIC rev C only: every line must tokenize, and the program
    stays within BASIC's 128 variables."""
    program = Program.from_bytes(tokenize(generate(variant)))
    assert len(program.lines) == len(generate(variant).splitlines())
    assert len(program.names) <= 128


def test_a_memlo_reservation_outside_ram_is_refused() -> None:
    with pytest.raises(AtariTestModeError, match=r"MEMLO \$0100 is outside \$0700-\$7FFF"):
        run_deals(1, [Deal(52, 1)], memlo=0x0100)
