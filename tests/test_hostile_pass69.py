"""Hostile pass 69's findings (issue #74), as variants of its cases (the pass's own calls stay out of the tests).
Its 12 job cases held; of 18 reward cases 10 failed: claims built from the words of two sentences were supported,
fillers swapped between the parallel parts of one sentence were paid, a name from another sentence in the answering
clause was not contradicted behind a confirmed year, and rights were refused (a courtesy title, "in the heart of",
a given name known alone, a list of parts before its explanation, where a city lies after it). Every assertion but
the guards failed on f5fc0cf, the commit the pass ran at."""

from __future__ import annotations

from reward_engine.offline import facts
from tests.helpers import grade_tables

ALCOTT = [
    "Little Women is a novel by Louisa May Alcott, published in 1868. Her father Amos Bronson Alcott wrote essays "
    "on education."
]
AMENDMENTS = [
    "The Nineteenth Amendment gave women the right to vote in 1920. The Eighteenth Amendment, ratified in 1919, "
    "prohibited the sale of alcohol."
]


def test_a_claim_built_from_two_sentences_is_not_supported() -> None:
    assert not facts.supported("Amos Bronson Alcott wrote the novel Little Women.", ALCOTT)
    assert facts.supported("Louisa May Alcott wrote the novel Little Women.", ALCOTT)  # guard
    assert not facts.supported("The Eighteenth Amendment gave women the right to vote in 1919.", AMENDMENTS)
    assert facts.supported("The Nineteenth Amendment gave women the right to vote in 1920.", AMENDMENTS)  # guard


RHINE = [
    "The Rhine rises in the Swiss Alps. Its upper course runs through Switzerland and its lower course runs "
    "through the Netherlands."
]
LUNGS = ["During respiration, animals inhale oxygen and exhale carbon dioxide through their lungs."]
STUART = [
    "The Stuart Highway crosses Australia from north to south; its northern terminus is Darwin and its southern "
    "terminus is Port Augusta."
]


def test_the_filler_of_a_parallel_part_is_not_the_other_s() -> None:
    assert not facts.supported("The upper course of the Rhine runs through the Netherlands.", RHINE)
    assert facts.supported("The lower course of the Rhine runs through the Netherlands.", RHINE)  # guard
    assert not facts.supported("Animals inhale carbon dioxide during respiration.", LUNGS)
    assert facts.supported("Animals exhale carbon dioxide during respiration.", LUNGS)  # guard
    asked = "Which town is the southern terminus of the Stuart Highway?"
    assert facts.answer_contradicted(asked, "Darwin.", STUART)
    assert not facts.answer_contradicted(asked, "Port Augusta.", STUART)  # guard


GODFATHER = [
    "The Godfather is a 1972 American crime film directed by Francis Ford Coppola. Its score was composed by Nino Rota."
]
MIDDLEMARCH = [
    "Middlemarch is a novel by George Eliot, published in 1871. Her partner George Henry Lewes wrote on philosophy."
]


def test_a_name_of_another_sentence_in_the_answering_clause_is_contradicted() -> None:
    asked = "Who directed the 1972 film The Godfather?"
    assert facts.answer_contradicted(
        asked, "The Godfather (1972) was directed by Nino Rota, who wrote its waltz.", GODFATHER
    )
    right = "The Godfather (1972) was directed by Francis Ford Coppola; its score was by Nino Rota."
    assert not facts.answer_contradicted(asked, right, GODFATHER)  # guard: the composer in a clause of his own
    asked = "Who wrote the novel Middlemarch?"
    wrong = "Middlemarch was written by George Henry Lewes and published in 1871."
    assert facts.answer_contradicted(asked, wrong, MIDDLEMARCH)
    assert not facts.answer_contradicted(asked, wrong.replace("George Henry Lewes", "George Eliot"), MIDDLEMARCH)


def test_courtesy_titles_the_centre_and_a_given_name_known_alone_are_supported() -> None:
    assert facts.supported("Dame Agatha Christie wrote The Mousetrap.", ["The Mousetrap is a play by Agatha Christie."])
    louvre = ["The Louvre is a museum in the centre of Paris, on the Right Bank of the Seine."]
    assert facts.supported("The Louvre stands in the heart of Paris.", louvre)
    watch = ["The Night Watch was painted by Rembrandt van Rijn in 1642."]
    assert facts.supported("Rembrandt painted The Night Watch in 1642.", watch)
    assert not facts.supported("Vermeer painted The Night Watch in 1642.", watch)  # guard


GAS = "Which gas do humans exhale?"
SALT = "Which two elements make up table salt?"
PANTHEON = "In which city is the Pantheon?"

test_a_gold_given_the_other_part_is_incorrect, test_rights_said_as_models_say_them_are_correct = grade_tables(
    [
        ("When breathing, we exhale oxygen from the blood and inhale carbon dioxide.", "Carbon dioxide", GAS),
        ("Raphael painted it.", "Michelangelo Buonarroti", "Who painted the ceiling of the Sistine Chapel?"),
        ("Rome, Milan, just north of the Largo Argentina.", "Rome", PANTHEON),
    ],
    [
        ("When breathing, we inhale oxygen into the blood and exhale carbon dioxide.", "Carbon dioxide", GAS),
        (
            "Sodium and chlorine: each unit of salt holds one sodium ion and one chloride ion.",
            "sodium and chlorine",
            SALT,
        ),
        ("Galileo, in 1610.", "Galileo Galilei", "Who discovered the four largest moons of Jupiter?"),
        ("Rembrandt painted it in 1642.", "Rembrandt van Rijn", "Who painted The Night Watch?"),
        ("It stands in the heart of Rome, Italy, just north of the Largo Argentina.", "Rome", PANTHEON),
    ],
)
