"""Hostile pass 31 (issue #74): 40 cases written before they were run, on 80 of KnowRL's released RL questions and golds
(3 whole completions under four presets, 2 jobs, one a rerun after the KB was rebuilt): no data loss, no stale result,
no crash; 12 findings. Closed here with pass 30's open ones, each beside a control: wrong answers paid right ("...,
but Edna Mode was voiced by Holly Hunter." beside the gold named in another role; "A Saint Bernard, often mistaken for
an English Mastiff."; "The USA has won more games than Mexico."; "Boston University" for Boston College), a
neighbouring season paid as an abstention ("2017-18" for 2018-19), a guess after a refusal read as part of it, and
right answers paid wrong (a description holding "and", "Queen Margrethe II", "John Dye" for "Andrew (John Dye)",
"Roland Bishop", a date per region, "(AS 1 to AS 32)", "(18 for military members)", a law's year, a hedged answer with
a second role). Binary RAR: a passive naming another agent, "will" read as the name Will, a negated verb about
something else and a true extra role ("He also plays the Silent Monk.") paid 0, a second guess ("It could also be
Jackie Chan.") and a denial of the asked verb ("Mozart did not compose The Magic Flute.") paid 1.

Left (in the issue's note): "Davos" for "Steel Serpent (Davos)" (a one-word bracket names a club or a party as often:
"Lionel Messi (Barcelona)"), "Simon Bolivar Buckner Jr." for the gold without "Jr." (whose name the question shares),
"UCF" for "UCF Knights", "Berklee" for "Berklee College of Music" (a school's own name needs a gazetteer: "London" for
the London School of Economics would be paid too), "A Saint Bernard (some say an English Mastiff)." CORRECT, "the 2000
Guineas" read as a year by the fact check, a second year in an explanation of another person's span.
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label
from tests.helpers import grade_table

EDNA = "Who did the voice of Edna Mode in The Incredibles?"
BEAST = "What kind of dog was the Beast in The Sandlot?"
SOCCER = "Who has won more soccer games, Mexico or USA?"
COLLEGE = "Where did he go to college?"
PREETA = "What is the real name of Preeta from Kundali Bhagya?"
DENMARK = "Which politician was the daughter of Ingrid of Sweden?"
POKEMON = "When did Pok\u00e9mon Diamond and Pearl come out?"
SUTTON = "When did Sutton Coldfield become part of Birmingham?"
CARRY = "What is the conceal and carry age in Missouri?"
BROTHERS = "Who made Brothers: A Tale of Two Sons?"
BURNLEY = "When was the last time Burnley qualified for Europe?"


test_pass31_grades = grade_table(
    [
        ("Brad Bird directed the film, but Edna Mode was voiced by Holly Hunter.", EDNA, "Brad Bird", Label.INCORRECT),
        ("Brad Bird directed the film; Holly Hunter voiced Edna Mode.", EDNA, "Brad Bird", Label.INCORRECT),
        ("Edna Mode was voiced by Brad Bird, the film's writer and director.", EDNA, "Brad Bird", Label.CORRECT),
        ("Brad Bird. The film was produced by John Walker.", EDNA, "Brad Bird", Label.CORRECT),  # another role
        (
            "A Saint Bernard, though it is often mistaken for an English Mastiff.",
            BEAST,
            "English Mastiff",
            Label.INCORRECT,
        ),
        ("An English Mastiff, often mistaken for a Saint Bernard.", BEAST, "English Mastiff", Label.CORRECT),
        ("The USA has won more games than Mexico.", SOCCER, "Mexico", Label.INCORRECT),
        ("The USA has won fewer games than Mexico.", SOCCER, "Mexico", Label.CORRECT),
        (
            "Rihanna. Beyonce has more Grammys than Rihanna.",
            "Who has more number one hits, Beyonce or Rihanna?",
            "Rihanna",
            Label.CORRECT,
        ),
        (
            "Jupiter had more moons than Saturn until 2019; today Saturn has more.",
            "Which planet has more moons, Jupiter or Saturn?",
            "Saturn",
            Label.CORRECT,
        ),
        ("Mexico has won more matches, although the USA has done better recently.", SOCCER, "Mexico", Label.CORRECT),
        ("Boston University", COLLEGE, "Boston College", Label.INCORRECT),
        ("Boston", COLLEGE, "Boston College", Label.CORRECT),  # the question says "college"
        (
            "Michigan State University",
            "Which Big Ten school is nicknamed the Spartans?",
            "Michigan State",
            Label.CORRECT,
        ),
        ("Kilimanjaro Mountain", "What is the highest mountain in Africa?", "Mount Kilimanjaro", Label.CORRECT),
        ("Mt Everest", "Which mountain is highest?", "Mount Everest", Label.CORRECT),
        ("2017\u201318", BURNLEY, "2018\u201319", Label.INCORRECT),  # overlaps by a year, holds neither
        ("the 2018\u201319 season", BURNLEY, "2018\u201319", Label.CORRECT),
        (
            "I'm not familiar with Kundali Bhagya, but Preeta might be played by Sriti Jha.",
            PREETA,
            "Shraddha Arya",
            Label.INCORRECT,
        ),  # fmt: skip
        ("I don't know; the show may have been filmed in Mumbai.", PREETA, "Shraddha Arya", Label.NOT_ATTEMPTED),
        ("Jane Austen, an English novelist and satirist.", "Who wrote Emma?", "Jane Austen", Label.CORRECT),
        ("Jane Austen, an English novelist, and Charlotte Bronte", "Who wrote Emma?", "Jane Austen", Label.INCORRECT),
        ("Queen Margrethe II", DENMARK, "Margrethe II of Denmark", Label.CORRECT),
        ("Margrethe I", DENMARK, "Margrethe II of Denmark", Label.INCORRECT),
        ("John Dye", "Who was the Angel of Death in Touched by an Angel?", "Andrew (John Dye)", Label.CORRECT),
        ("Barcelona", "Who won the 2011 Ballon d'Or?", "Lionel Messi (Barcelona)", Label.INCORRECT),  # a club
        ("France", "What is the capital of France?", "Paris (France)", Label.INCORRECT),
        ("Roland Bishop", "What was Tupac's name in Juice?", "Bishop", Label.CORRECT),
        ("Clive Owen", "What is Hunt's first name on Grey's Anatomy?", "Owen", Label.INCORRECT),
        ("Lyon Paris", "What is France's capital's name?", "Paris", Label.INCORRECT),
        (
            "September 28, 2006 in Japan, and April 22, 2007 in North America.",
            POKEMON,
            "September 28, 2006",
            Label.CORRECT,
        ),  # fmt: skip
        (
            "September 28, 2007 in Japan, and April 22, 2007 in North America.",
            POKEMON,
            "September 28, 2006",
            Label.INCORRECT,
        ),  # fmt: skip
        ("1791 in Austria, 1792 in Germany", "In what year did Mozart die?", "1791", Label.INCORRECT),  # no release
        (
            "32 Accounting Standards (AS 1 to AS 32)",
            "Total number of accounting standards issued by ICAI",
            "32",
            Label.CORRECT,
        ),  # fmt: skip
        ("On 1 April 1974, under the Local Government Act 1972.", SUTTON, "1974", Label.CORRECT),
        ("Under the Local Government Act 1972.", SUTTON, "1974", Label.INCORRECT),
        ("19 years old (18 for military members).", CARRY, "19", Label.CORRECT),
        ("18 years old (19 for civilians).", CARRY, "19", Label.INCORRECT),
        (
            "I'm not certain, but I believe it was developed by Starbreeze Studios and directed by Josef Fares.",
            BROTHERS,
            "Starbreeze Studios",
            Label.CORRECT,
        ),  # fmt: skip
        (
            "I'm not certain, but I believe it was developed by Remedy and directed by Josef Fares.",
            BROTHERS,
            "Starbreeze Studios",
            Label.INCORRECT,
        ),  # fmt: skip
    ]
)

TOY = "Who plays Buzz Lightyear in Toy Story 3?"
EMILY = "Who does Emily end up with in Emily Owens, M.D.?"
SHREW = "Younger sister of Kate in The Taming of the Shrew"
SHREW_SAYS = "In The Taming of the Shrew, Bianca is the younger sister of Katherina (Kate)."
FLUTE = "Who composed The Magic Flute?"
FLUTE_SAYS = "Mozart composed The Magic Flute in 1791."
MONKEY = "Who played the Monkey King in Forbidden Kingdom?"
MONKEY_SAYS = "In the 2008 film The Forbidden Kingdom, the Monkey King is played by Jet Li."


@pytest.mark.parametrize(
    ("question", "answer", "passage", "contradicted"),
    [
        (TOY, "Buzz Lightyear is voiced by Tom Hanks.", "Tim Allen voices Buzz Lightyear in Toy Story 3.", True),
        (TOY, "Buzz Lightyear is voiced by Tim Allen.", "Tim Allen voices Buzz Lightyear in Toy Story 3.", False),
        (TOY, "Buzz is voiced by Tim Allen, and Woody is voiced by Tom Hanks.", "Tim Allen voices Buzz.", False),
        (TOY, "Buzz Lightyear is voiced by American comedian Tim Allen.", "Tim Allen voices Buzz Lightyear.", False),
        (
            "Who played Rose in Titanic?",
            "Kate Winslet played Rose. The older Rose was played by Gloria Stuart.",
            "Kate Winslet played Rose in Titanic.",
            False,
        ),
        (
            "When was Hamlet written?",
            "Between 1599 and 1601; it was written by William Shakespeare.",
            "Hamlet was written between 1599 and 1601.",
            False,
        ),
        (EMILY, "She will end up with Micah.", "In Emily Owens, M.D., Emily ends up with Will.", True),
        (EMILY, "She ends up with Will.", "In Emily Owens, M.D., Emily ends up with Will.", False),
        (SHREW, "Bianca. She cannot marry until Katherina is wed.", SHREW_SAYS, False),  # another predicate
        (SHREW, "Not Bianca.", SHREW_SAYS, True),
        (FLUTE, "Mozart did not compose The Magic Flute.", FLUTE_SAYS, True),  # the asked verb denied
        (FLUTE, "Mozart. He did not live to see it succeed.", FLUTE_SAYS, False),
        (MONKEY, "Jet Li. He also plays the Silent Monk.", MONKEY_SAYS, False),  # a true extra role, unverifiable
        (MONKEY, "Jet Li (he also plays the Silent Monk)", MONKEY_SAYS, False),
        (MONKEY, "Jet Li. It could also be Jackie Chan.", MONKEY_SAYS, True),  # a second guess
        (MONKEY, "Jet Li (it could be Jackie Chan)", MONKEY_SAYS, True),
    ],
)
def test_binary_rar_reads_agents_and_modal_verbs(question: str, answer: str, passage: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(question, answer, [passage]) is contradicted


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Steve Harvey stopped hosting Family Feud in 2010.", False),  # the opposite event, same year
        ("Steve Harvey started hosting Family Feud in 2010.", True),
    ],
)
def test_an_ending_is_not_supported_by_a_beginning(claim: str, supported: bool) -> None:
    assert facts.supported(claim, ["Steve Harvey began hosting Family Feud in 2010."]) is supported


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("World War I began in 1914.", "World War I broke out in 1914 after the assassination of Franz Ferdinand."),
        ("The Qing dynasty ended in 1912.", "The Qing dynasty fell in 1912 when the last emperor Puyi abdicated."),
        ("Michael Jordan quit basketball in 1993.", "Michael Jordan retired from basketball in 1993."),
        ("The Simpsons began on Fox in 1989.", "The Simpsons premiered on Fox in December 1989."),
    ],
)
def test_a_beginning_or_end_said_another_way_is_supported(claim: str, passage: str) -> None:
    assert facts.supported(claim, [passage])
