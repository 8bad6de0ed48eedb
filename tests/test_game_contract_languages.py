"""The contract in both languages: every game writes its move lines in the
reader's language (``pbem.games.i18n``) and reads both, always; every text
a player reads is looked up in the catalogs (the pseudo-locale leaves no
plain English word but the notation's and the players' names)."""
from __future__ import annotations

import pytest

from pbem.games.base import SPECTATOR, canonical
from pbem.games.i18n import CHINESE, ENGLISH, LANGUAGES, PSEUDO, reading
from tests.pseudo_support import leftover_english, notation_words
from tests.test_game_contract import CASES, NAMES, _lines_offering_a_move, playout_of, walked


@pytest.mark.parametrize("game,players,options", CASES)
def test_every_move_line_pastes_back_in_either_language(game, players, options):
    """A move written for a reader of either language parses back as that
    move whatever language the parser's reader has, with names and without;
    a board's offered lines in Chinese parse whole to legal moves."""
    names = NAMES[:players]
    for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(walked(game, players, options, 0)):
        if step % 6:
            continue
        legal_set = {canonical(m) for m in legal}
        for lang in LANGUAGES:
            for given in (None, names):
                with reading(lang):
                    texts = [(m, game.describe(m, player, given)) for m in legal[:15]]
                for reader in LANGUAGES:
                    with reading(reader):
                        for move, text in texts:
                            assert canonical(game.parse(text, state, player, given)) == canonical(move), (lang, reader, text)
                if lang == ENGLISH:
                    # The English board's offered lines, at these very states (seed 0,
                    # every 6th step), with and without names, are checked by
                    # test_game_contract.test_every_line_offered_as_a_move_parses_whole
                    # (seeds 0 and 1, every 3rd step; English is the default reader):
                    # a board costs, so it is drawn once.
                    continue
                with reading(lang):
                    offered = {game.describe(m, player, given) for m in legal}
                    for line in _lines_offering_a_move(game.render(state, player, given), offered):
                        assert canonical(game.parse(line, state, player, given)) in legal_set, (lang, line)


@pytest.mark.parametrize("game,players,options", CASES)
def test_the_help_and_its_examples_exist_in_both_languages(game, players, options):
    """The setup, the help and its examples in each language; every example
    stands in its help and parses wherever a seat is to act."""
    checked = game.check_options(players, options)
    helps = {}
    for lang in LANGUAGES:
        with reading(lang):
            helps[lang] = (game.describe_setup(checked, players), game.notation_help_for(checked),
                           game.notation_examples(checked))
            for example in helps[lang][2]:
                assert example in helps[lang][1], (lang, example)
    assert helps[CHINESE][1] != helps[ENGLISH][1], "the help reads the same in Chinese as in English"
    assert helps[CHINESE][0] != helps[ENGLISH][0], "the setup reads the same in Chinese as in English"
    for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(walked(game, players, checked, 0)):
        if step % 9:
            continue
        for lang in LANGUAGES:
            for example in helps[lang][2]:
                game.parse(example, state, player)


@pytest.mark.parametrize("game,players,options", CASES)
def test_no_text_a_player_reads_was_left_untranslated(game, players, options):
    """In the pseudo-locale, the board for each viewer, every event and move
    described, the setup, the help, refusals and the result show no plain
    English word but the notation's and the players' names."""
    names = NAMES[:players]
    checked = game.check_options(players, options)
    with reading(ENGLISH):
        examples = game.notation_examples(checked)
    words = notation_words(examples)
    found: dict[str, list] = {}

    def check(where, text, moves=()):
        left = leftover_english(text, [*names, *moves, *examples], words)
        if left:
            found.setdefault(where, left)

    with reading(PSEUDO):
        check("setup", game.describe_setup(checked, players))
        check("help", game.notation_help_for(checked))
        for step, (state, player, legal, log, seed_bytes, chooser) in enumerate(walked(game, players, checked, 0)):
            if step % 8:
                continue
            moves = [game.describe(m, player, names) for m in legal]
            words |= notation_words(moves)
            for viewer in (player, SPECTATOR):
                check("board", game.render(state, viewer, names), moves)
            for event in log[-6:]:
                check(event["type"], game.describe(game.redact(event, player), player, names))
            try:
                game.parse("xyzzy plugh 42", state, player, names)
            except Exception as err:  # a ParseError: its message is read
                check("refusal", getattr(err, "message", str(err)), [*moves, "xyzzy plugh 42", "xyzzy", "plugh"])
        end = playout_of(game, players, options, 0).state
        check("end board", game.render(end, SPECTATOR, names))
        check("result", game.describe_result(game.result(end), names))
    assert not found, "English left in texts a player reads: " + "; ".join(f"{k}: {v[:8]}" for k, v in found.items())
