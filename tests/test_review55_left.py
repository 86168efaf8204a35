"""Review 55's misses that were reward holes, closed (issue #74): a gold named as the one beaten or rejected, a
pair the other way round another verb or a passive, "a"/"an" + the gold + another head in title case or a
species after a non-breed gold, "a"/"an" + another kind with another set aside, a compound of an element, a
modifier that makes another animal, a feature "of"
the gold place, the capital district for a state, abbreviated months, offsets counted in words past twelve; and
under-pays mended: another word for the gold's kind or its young ("A solicitor." for lawyer, "A kitten." for cat). Each
case below is new (review 55's own rows are pinned in tests/data/grader_reviews.jsonl); the wrong ones all but three
(the Carter, Sea of Japan and Waterloo rows, guards) and four right ones failed on cb7647b."""

from __future__ import annotations

from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from tests.helpers import grade_tables

WRONG_PAID = [
    ("Juventus beat Barcelona in the final.", "Barcelona", "Which club won the 2015 Champions League final?"),
    ("Barcelona lost to Juventus.", "Barcelona", "Which club won the 2015 Champions League final?"),
    ("Jimmy Carter defeated Ronald Reagan.", "Ronald Reagan", "Who won the 1980 US presidential election?"),
    (
        "She marries Darcy, turning down Mr. Collins.",
        "Mr. Collins",
        "Whom does Charlotte marry in Pride and Prejudice?",
    ),
    ("A sea horse.", "Horse", "What animal is Black Beauty?"),
    ("A Fox Terrier.", "Fox", "What animal is Fantastic Mr Fox?"),
    ("A Poodle Moth.", "Poodle", "What breed of dog is Fifi?"),
    ("Zinc oxide.", "Zinc", "Which metal coats galvanised steel?"),
    ("The Sea of Japan.", "Japan", "Which country is Mount Fuji in?"),
    ("Washington DC.", "Washington", "Which US state is Spokane in?"),
    ("The third Monday in Feb.", "Third Monday of January", "When is Martin Luther King Jr. Day?"),
    ("Eighteen months after March 1815.", "June 1815", "When was the Battle of Waterloo?"),
    ("A lamb, not a goat.", "Pig", "What type of animal is Babe?"),
    ("A kid or a lamb.", "Goat", "What animal is Heidi's Schwänli?"),
    # review 57: a kind named by a modifier is no plain description, nor a young form with the gold set aside
    ("A Tasmanian tiger.", "Tiger", "What kind of animal is Shere Khan in The Jungle Book?"),
    ("A polar bear.", "Bear", "What kind of animal is Paddington?"),
    ("A cub, not a lion.", "Lion", "What kind of animal is Simba in The Lion King?"),
]

RIGHT_KEPT = [
    ("Barcelona beat Juventus in the final.", "Barcelona", "Which club won the 2015 Champions League final?"),
    ("Barcelona beat Juventus.", "Juventus", "Which club did Barcelona beat in the 2015 Champions League final?"),
    ("A Persian cat.", "Persian", "What breed of cat is Mr. Bigglesworth?"),
    ("A lion cub.", "Lion", "What kind of animal is Simba?"),
    ("The University of Cambridge.", "Cambridge", "Which university did Isaac Newton attend?"),
    ("Washington.", "Washington", "Which US state is Spokane in?"),
    ("The third Monday in Jan.", "Third Monday of January", "When is Martin Luther King Jr. Day?"),
    ("A big tiger.", "Tiger", "What animal is Shere Khan in The Jungle Book?"),
    ("A collie dog.", "Collie", "What kind of animal is Lassie?"),
    ("A sea snake.", "Snake", "What type of animal is the banded sea krait?"),
    ("A solicitor.", "Lawyer", "What was Gandhi's profession in South Africa?"),
    ("Probably a kitten.", "Cat", "What animal is Tom in Tom and Jerry?"),
    ("A cygnet, not a duckling.", "Swan", "What is the Ugly Duckling in the end?"),
]


test_a_wrong_answer_is_incorrect, test_the_right_answer_stays_correct = grade_tables(WRONG_PAID, RIGHT_KEPT)


FINAL = ["Brazil beat Germany 2–0 in the 2002 World Cup final."]


def test_a_win_said_after_the_loss_keeps_the_gold() -> None:
    asked = "Who won the 2008 Wimbledon men's singles title?"
    assert grade("Rafael Nadal was beaten by Federer in 2007 but won in 2008.", "Rafael Nadal", asked).name == "CORRECT"
    trump = "Donald Trump lost by nearly three million votes in the popular vote but won the Electoral College."
    assert grade(trump, "Donald Trump", "Who won the 2016 United States presidential election?").name == "CORRECT"


def test_a_rematch_is_no_contradiction() -> None:
    final = ["Rafael Nadal beat Roger Federer in the 2008 Wimbledon final."]
    assert not facts.contradicted("Roger Federer beat Rafael Nadal in a Wimbledon final.", final)
    assert facts.contradicted("Roger Federer beat Rafael Nadal in the 2008 Wimbledon final.", final)
    terms = ["Benjamin Harrison succeeded Grover Cleveland as president in 1889."]
    assert not facts.contradicted("Grover Cleveland succeeded Benjamin Harrison as president.", terms)


def test_a_pair_turned_round_another_verb_is_contradicted() -> None:
    assert facts.contradicted("Germany defeated Brazil in the 2002 final.", FINAL) is True
    assert facts.contradicted("Brazil lost to Germany in the 2002 final.", FINAL) is True
    assert facts.contradicted("Germany lost to Brazil in the 2002 final.", FINAL) is False
    assert facts.contradicted("Germany was beaten by Brazil in the 2002 final.", FINAL) is False


def test_the_loser_named_for_the_winner_is_contradicted() -> None:
    assert facts.answer_contradicted("Who won the 2002 World Cup final?", "Germany.", FINAL) is True
    assert facts.answer_contradicted("Who won the 2002 World Cup final?", "Brazil.", FINAL) is False
    asked_the_loser = "Whom did Brazil beat in the 2002 World Cup final?"
    assert facts.answer_contradicted(asked_the_loser, "Germany.", FINAL) is False
    chose = ["In the end, Elizabeth chooses Darcy over Wickham."]
    assert facts.answer_contradicted("Whom does Elizabeth choose in the end?", "Wickham.", chose) is True
    assert facts.answer_contradicted("Whom does Elizabeth choose in the end?", "Darcy.", chose) is False


def test_a_division_of_the_place_is_the_place() -> None:
    question = "In which Canadian province is Montreal?"
    assert grade("In the Province of Quebec.", "Quebec", question).name == "CORRECT"
    assert grade("Gulf of Mexico.", "Mexico", "Which country borders the US to the south?").name == "INCORRECT"
