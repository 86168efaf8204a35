"""The landing review of pass 69's mends (review 70): what the new offline rules got wrong. "He" stood for the last
long name, not the person the sentence before was about; claims joining names or a relative clause were refused;
a gapped second part ("and the last in 2007") or an elided one read as the other's filler; converse verbs (sell,
buy) and a fronted "First" read as parallel parts; detail beside the right name was contradicted; namesakes of a
given name known alone were paid, its family name refused; one-word names took two-letter initialisms; a shotgun
list in lower case and one behind "both"/"because" were paid; "Mr" was dropped; a given name counted as a doer's.
Every assertion but the guards failed on d52a8e2."""

from __future__ import annotations

from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from tests.helpers import grade_tables

OBAMA = ["Barack Obama served as the 44th President of the United States. He was born in Honolulu, Hawaii."]
AUSTEN = ["Pride and Prejudice is an 1813 novel by Jane Austen. The novel follows Elizabeth Bennet."]
DICKENS = [
    "Charles Dickens was an English novelist. His works include Oliver Twist, published in 1838. A Christmas Carol "
    "followed in 1843."
]


def test_claims_about_the_person_a_pronoun_stands_for_or_joined_are_supported() -> None:
    assert facts.supported("Barack Obama was born in Honolulu.", OBAMA)
    assert facts.supported("Jane Austen wrote Pride and Prejudice, which follows Elizabeth Bennet.", AUSTEN)
    assert facts.supported("Jane Austen's novel Pride and Prejudice follows Elizabeth Bennet.", AUSTEN)
    assert facts.supported("Charles Dickens wrote Oliver Twist and A Christmas Carol.", DICKENS)
    assert not facts.supported("Charles Dickens wrote Oliver Twist and Middlemarch.", DICKENS)  # guard


POTTER = ["The first Harry Potter book was published in 1997 and the last in 2007."]
LIONS = ["The male lion has a mane, while the female does most of the hunting."]
COLD = [
    "The highest temperature ever recorded on Earth was 56.7 C in Death Valley, and the lowest was -89.2 C at "
    "Vostok Station."
]


def test_a_gapped_or_elided_part_is_no_other_filler() -> None:
    assert facts.supported("The last Harry Potter book was published in 2007.", POTTER)
    assert not facts.answer_contradicted("In what year was the last Harry Potter book published?", "2007.", POTTER)
    assert facts.supported("Female lions do most of the hunting.", LIONS)
    assert not facts.answer_contradicted(
        "Where was the lowest temperature on Earth recorded?", "At Vostok Station.", COLD
    )
    assert facts.supported("The lowest temperature on Earth was recorded at Vostok Station.", COLD)


JAWS = [
    "Jaws is a 1975 American thriller film directed by Steven Spielberg. It is based on the 1974 novel by Peter "
    "Benchley. Its score was composed by John Williams."
]


def test_detail_beside_the_right_name_is_not_contradicted() -> None:
    asked = "Who directed Jaws?"
    assert not facts.answer_contradicted(
        asked, "Steven Spielberg directed Jaws, based on the novel by Peter Benchley.", JAWS
    )
    assert not facts.answer_contradicted(
        asked, "Steven Spielberg directed Jaws and John Williams composed its score.", JAWS
    )
    assert facts.answer_contradicted(
        asked, "Jaws was directed by John Williams, who also wrote its score.", JAWS
    )  # guard


def test_titles_that_tell_people_apart_and_a_shared_given_name_are_kept() -> None:
    thatcher = ["Denis Thatcher was the husband of Margaret Thatcher, who became Prime Minister in 1979."]
    assert not facts.supported("Mr Thatcher became Prime Minister in 1979.", thatcher)
    lucy = ["Lucy in the Sky with Diamonds was written by John Lennon; Elton John released a cover version in 1974."]
    assert not facts.supported("Elton John wrote Lucy in the Sky with Diamonds.", lucy)
    assert (
        grade(
            "Russia agreed to sell Alaska, which the US chose to buy.", "Alaska", "What did the US buy from Russia?"
        ).name
        == "CORRECT"
    )


TITANIC = "Who played Jack Dawson in Titanic?"
CAPITAL = "What is the capital of France?"

test_namesakes_and_lists_are_incorrect, test_family_names_and_fronted_words_are_correct = grade_tables(
    [
        ("Leonardo da Vinci.", "Leonardo DiCaprio", TITANIC),
        ("Napoleon.", "Napoleon III", "Who was the last monarch of France?"),
        ("Photoshop.", "PS", "Which file format does Adobe's editor save by default?"),
        ("Lyon marseille paris", "Paris", CAPITAL),
        ("Paris, both Lyon and Marseille are candidates too.", "Paris", CAPITAL),
        ("Bret Harte, better known as Mark Twain.", "Mark Twain", "Who wrote The Adventures of Tom Sawyer?"),
    ],
    [
        ("DiCaprio.", "Leonardo DiCaprio", TITANIC),
        ("Bonaparte.", "Napoleon Bonaparte", "Who was crowned Emperor of the French in 1804?"),
        (
            "First enthroned in 1908 as a toddler, Puyi was the last Emperor of China.",
            "Puyi",
            "Who was the last emperor of China?",
        ),
        (
            "Samuel Clemens used the pen name Mark Twain.",
            "Mark Twain",
            "What pen name did the author of Tom Sawyer use?",
        ),
    ],
)
