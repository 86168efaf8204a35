"""One common noun after "a"/"an": another kind offered as the answer, or the class the answer belongs to.

"A cat." for the bulldog, "A lawyer." for George Bailey's job as a banker, "A violin." for the cello: each names
one kind beside the gold's, a wrong answer (SimpleQA: INCORRECT), which the grader's vague-description rule paid
as an abstention (hostile pass 54). "A metal." for nickel, "A whale." for the blue whale or "An animal." to "What
kind of animal ..." name the class the gold falls in, which neither confirms nor contradicts it (NOT_ATTEMPTED).

Telling a sibling from a class takes knowledge these rules lack; what they read: the class words of everyday
taxonomies (a closed list: a noun outside it is read as a kind), the gold's own head ("dog" in "bulldog", "whale"
in "blue whale"), the question's nouns, and whether the question asks for a person, place or time (who, where,
when: there a common noun describes the answer, "A lawyer." to "Who shot him?"). A noun with any modifier ("a
tree nut", "a Russian physicist") stays a description: only the bare noun is read here.

The gold can itself be the modifier of another noun: "A bulldog ant." for bulldog names an ant (hostile pass 54),
as "A bulldog shark." names a shark; the noun after it decides the kind, unless it is a class word ("a bulldog
breed"), the question's noun, a common species a breed's name goes before ("a Siamese cat" for Siamese), or an
adverb or pronoun ("Bulldog, probably.", "the bulldog himself").
"""

from __future__ import annotations

import re

# class words: nouns that name a category many answers fall in, never one answer of a "what kind" question
CLASS_NOUNS = frozenset(
    """
    animal mammal bird fish reptile amphibian insect bug creature beast species breed pet predator herbivore hound
    terrier gundog
    carnivore vertebrate invertebrate organism plant tree flower shrub bush herb weed grass fungus fruit vegetable
    nut berry grain cereal crop seed food dish meal drink beverage spice condiment sweet dessert snack
    metal element mineral gas liquid solid chemical compound substance material mixture acid base salt alloy
    gem gemstone stone rock crystal fuel
    instrument tool device machine gadget appliance vehicle weapon craft vessel ship boat car
    person man woman child boy girl human people individual someone somebody figure character
    thing object item something stuff kind type sort form variety
    place location spot site city town village country state nation region area province territory island
    continent river lake mountain sea ocean planet star moon body building structure landmark
    language dialect religion faith
    book novel story poem song film movie show series programme program game sport event team band group club
    company firm business organisation organization institution brand
    job profession occupation trade career role title position rank
    word term name number figure amount quantity colour color shade shape symbol sign
    disease illness condition disorder infection drug medicine treatment
    lot bit few couple handful dozen pair trio quartet number
    """.split()
)

# words that may follow an answer's name without being its head noun: adverbs and pronouns, young and mixed forms
# ("a lion cub", "a beagle pup"), and the common species a breed's name goes before ("a Siamese cat", "an Akita inu")
_AFTER_A_NAME = frozenset(
    """
    himself herself itself themselves too also though indeed again now then yes today there here instead anyway
    perhaps maybe alone both once twice first second overall jr sr puppy puppies mix cross part piece
    confident sure certain correct right idea
    dog cat horse pony cattle cow pig sheep goat chicken duck rabbit retriever terrier hound spaniel inu
    pup cub calf kitten foal chick joey lamb piglet fawn duckling gosling cygnet owlet eaglet leveret larva
    """.split()
)
# species a breed's name goes before ("A Siamese cat." for Siamese, "A collie dog." for Collie); after a gold that is
# itself an animal opening a breed's name it names that breed: "A fox terrier." for the fox is a dog (review 55)
_SPECIES_AFTER = frozenset(
    "dog cat horse pony cattle cow pig sheep goat chicken duck rabbit retriever terrier hound spaniel inu".split()
)
# animals whose names open a breed's: "fox terrier", "bull terrier", "rat terrier", "deer hound"
_ANIMALS_BEFORE_BREEDS = frozenset("fox bull rat bear wolf deer lion tiger otter bird mouse badger boar".split())
# the compound a metal or element forms: "Copper sulfate." for copper is another substance, "Copper sheeting." the
# metal worked (review 55)
_COMPOUNDS = frozenset(
    """
    sulfate sulphate sulfide sulphide oxide dioxide monoxide chloride nitrate nitrite carbonate bicarbonate hydroxide
    iodide fluoride bromide phosphate acetate cyanide hydride nitride silicate chromate sulfite sulphite carbide
    """.split()
)
# a modifier that makes the gold's word another animal: a sea lion is no lion, a red panda no giant panda (review 55);
# a closed list, as telling a Bengal tiger (a tiger) from a sea lion takes knowledge
_NOT_THE_ANIMAL = frozenset(
    """
    sea-lion mountain-lion ant-lion sea-horse sea-cow sea-dog guinea-pig prairie-dog flying-fox red-panda
    koala-bear water-bear sea-cucumber sea-urchin sea-monkey mole-rat tasmanian-tiger witch-doctor spin-doctor
    """.split()
)  # and of another trade: a witch doctor is no physician (review 57: NOT_ATTEMPTED)
# one noun after "a"/"an", perhaps then another set aside or offered: "A lamb, not a goat.", "A lamb or a goat."
_ONE_NOUN = re.compile(
    r"(?:a|an|A|An)\s+(?P<noun>[a-z][a-z-]{2,})(?:\s+(?P<young>pup|cub|calf|kitten|foal|chick|joey|puppy))?"
    r"(?:\W*|,?\s+(?P<tail>not|rather than|instead of|or)\b.*)",
    re.S,
)  # "A bear cub." for lion offers a bear's young (review 57: NOT_ATTEMPTED)
_ASKS_PERSON_PLACE_TIME = re.compile(r"(?i)^\W*(?:who|whom|whose|where|when|why|how)\b")
_WORD = re.compile(r"[a-z]+")
# "What is the name of Dorothy's dog?", "Name the scientist ...": "A terrier." describes it ("the name for a group
# of owls" asks a term: "A murder." is another one)
_ASKS_A_NAME = re.compile(r"(?i)\bname\s+(?:of|the|a|an)\b|\bnamed\b|\bcalled\b(?!\?)")
_CAPITALISED = re.compile(r"\b[A-Z][\w'-]*")
_ASKS_A_KIND = re.compile(r"(?i)\b(?:kind|type|breed|species|sort|variety|genus)\b")  # "A poodle." for German Shepherd


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def names_another_kind(text: str, gold: str, question: str, whole: str = "") -> bool:
    """True when ``text`` is "a"/"an" and one lower-case noun that the gold, the question and the class words do
    not hold: another kind offered as the answer ("A cat." for bulldog), not a vague description ("A metal.").
    ``whole``, the whole answer lower-cased, tells a kind added to another ("A lawyer. Actually, a planter too.")
    from one given instead.

    >>> names_another_kind("A cat.", "bulldog", "What kind of animal is Binky from Arthur?")
    True
    >>> names_another_kind("A dog.", "bulldog", "What kind of animal is Binky from Arthur?")
    False
    >>> names_another_kind("An animal.", "bulldog", "What kind of animal is Binky from Arthur?")
    False
    >>> names_another_kind("A lawyer.", "dashiell hammett", "Who wrote The Maltese Falcon?")
    False
    >>> names_another_kind("a planter", "lawyer", "What did Polk do?", "a lawyer. actually, a planter too.")
    False
    >>> names_another_kind("A tree nut.", "almond", "Which nut is the main ingredient of marzipan?")
    False
    >>> names_another_kind("A lamb, not a goat.", "pig", "What type of animal is Babe?")
    True
    """
    found = _ONE_NOUN.fullmatch(text.strip())
    if found is None or not question or _ASKS_PERSON_PLACE_TIME.match(question) or _ASKS_A_NAME.search(question):
        return False
    if len(_CAPITALISED.findall(gold)) >= 2 and not _ASKS_A_KIND.search(question):
        return False  # "A lawyer." for Abraham Lincoln, "A sloop." for HMS Beagle: a description of a named one
    said = found["noun"].casefold()
    if re.search(rf"\balso\s+an?\s+{said}\b|\b{said}\s+(?:too|as well)\b", whole):
        return False  # "[a lawyer.] Actually, a planter too": a second role beside the answer, not another
    noun = _stem(said)
    if _a_class_here(said, question):
        return False
    # the gold's head ("dog" of "bulldog", "whale" of "blue whale"): the class it belongs to
    return not any(_stem(w).endswith(noun) for w in _WORD.findall(gold.casefold()))


# another word for the same kind, or the young of it: "An attorney." for lawyer, "A piglet." for pig, "A fawn." for
# deer name the gold (review 55: INCORRECT once "a"/"an" + another noun read as another kind); answer word -> the
# gold words it is one of (directed: a solicitor is a lawyer, not every lawyer a solicitor); a young word of several
# kinds ("cub", "calf", "foal") is left out, or "A cub." would answer for every bear, lion and wolf (landing review)
_SAME_KIND = {
    "attorney": {"lawyer"},
    "lawyer": {"attorney"},
    "solicitor": {"lawyer"},
    "barrister": {"lawyer"},
    "doctor": {"physician"},
    "physician": {"doctor"},
    "mongrel": {"dog"},
    "mutt": {"dog"},
    "hog": {"pig"},
    "swine": {"pig"},
    "thunderhead": {"cumulonimbus"},
    "aerie": {"eyrie"},
    "eyrie": {"aerie"},
    "automobile": {"car"},
    "piglet": {"pig"},
    "puppy": {"dog"},
    "kitten": {"cat"},
    "colt": {"horse"},
    "filly": {"horse"},
    "lamb": {"sheep"},
    "fawn": {"deer"},
    "duckling": {"duck"},
    "gosling": {"goose"},
    "cygnet": {"swan"},
    "joey": {"kangaroo"},
    "owlet": {"owl"},
    "eaglet": {"eagle"},
    "leveret": {"hare"},
}


def same_kind(text: str, gold_raw: str) -> bool:
    """``text`` is "a"/"an" and one noun that is another word for the gold's one-word kind, or its young.

    >>> same_kind("An attorney.", "Lawyer"), same_kind("A piglet.", "Pig"), same_kind("A kitten.", "Persian")
    (True, True, False)
    >>> same_kind("A cub.", "Lion")
    False
    """
    found = _ONE_NOUN.fullmatch(text.strip())
    gold = re.findall(r"[a-z]+", gold_raw.casefold())
    if found is None or found["tail"] == "or" or len(gold) != 1:
        return False
    if found["tail"] and re.search(rf"\b{gold[0]}", text[found.end("tail") :].casefold()):
        return False  # "A cub, not a lion.": the gold set aside (review 57)
    return _stem(gold[0]) in _SAME_KIND.get(found["noun"].casefold(), ())


def modifies_another_noun(text: str, gold_raw: str, question: str) -> bool:
    """True when ``text`` is the gold (after "a", "an" or "the") and one lower-case noun that is another head: the
    gold modifies it, so the answer names that noun's kind ("A bulldog ant." for bulldog).

    >>> modifies_another_noun("A bulldog ant.", "bulldog", "What kind of animal is Binky from Arthur?")
    True
    >>> modifies_another_noun("A bulldog breed.", "bulldog", "What kind of animal is Binky from Arthur?")
    False
    >>> modifies_another_noun("The bulldog, probably.", "bulldog", "What kind of animal is Binky from Arthur?")
    False
    >>> modifies_another_noun("A lion cub.", "Lion", "What kind of animal is Simba?")
    False
    >>> modifies_another_noun("A Bulldog Ant.", "Bulldog", "What breed of dog is the Churchill mascot?")
    True
    >>> modifies_another_noun("A fox terrier.", "Fox", "What animal is Mr. Tod?")
    True
    >>> modifies_another_noun("A Siamese cat.", "Siamese", "What breed of cat is Si?")
    False
    """
    if len(gold_raw.strip()) < 3 or gold_raw.strip().casefold() in ("yes", "no"):
        return False  # "No idea, but I'd guess no." for No
    gold = re.escape(gold_raw.strip())
    compound = re.fullmatch(rf"(?i:(?:a|an|the)\s+)?(?i:{gold})\s+(?P<head>[A-Za-z]+)\W*", text.strip())
    if compound is not None and compound["head"].casefold() in _COMPOUNDS:
        return True  # "Copper sulfate." for copper
    # after an article: "Copper sheeting." or "Oak planks." is the material, not a kind; "A Bulldog Ant." in title
    # case as "A bulldog ant." (review 55)
    found = re.fullmatch(rf"(?i:a|an)\s+(?i:{gold})\s+(?P<head>[A-Za-z][a-z-]{{2,}})\W*", text.strip())
    if found is None:
        return False
    head = found["head"].casefold()
    if head in _SPECIES_AFTER and found[0].split()[1].casefold() in _ANIMALS_BEFORE_BREEDS:
        return True  # "A fox terrier." for the fox: a dog; "A collie dog." for Collie is the collie (review 57)
    adverb = head.endswith("ly") and head not in _LY_NOUNS  # "A tiger lily." is a flower (review 57)
    return not (adverb or head in _AFTER_A_NAME or _a_class_here(head, question))


# nouns that end like an adverb: "A tiger lily.", "A horse fly." name another thing, where "A bulldog, surely." does not
_LY_NOUNS = frozenset("lily lilies fly flies butterfly dragonfly firefly gadfly jelly belly bully ally".split())


def another_animal(text: str, gold_raw: str) -> bool:
    """``text`` is a modifier and the gold's last word that together name another animal: "A sea lion." for lion,
    "A red panda." for giant panda (``_NOT_THE_ANIMAL``), unless the gold itself says so.

    >>> another_animal("A sea lion.", "Lion"), another_animal("A red panda.", "Giant panda")
    (True, True)
    >>> another_animal("A Bengal tiger.", "Tiger"), another_animal("A sea lion.", "Sea lion")
    (False, False)
    """
    words = re.findall(r"[a-z]+", text.casefold())
    if words[:1] in (["a"], ["an"], ["the"]):
        words = words[1:]
    gold_words = re.findall(r"[a-z]+", gold_raw.casefold())
    if len(words) != 2 or not gold_words:
        return False
    if words[-1] != gold_words[-1] and _stem(gold_words[-1]) not in _SAME_KIND.get(words[-1], ()):
        return False  # "A witch doctor." for physician: the doctor is another word for the gold (review 57)
    return "-".join(words) in _NOT_THE_ANIMAL and "-".join(gold_words[-2:]) not in _NOT_THE_ANIMAL


_TWO_NOUNS = re.compile(
    r"(?i:a|an)\s+(?P<a>[a-z][a-z-]{2,})\s*(?:,|and|&|or|/|,\s*or|,\s*and)\s*(?i:a|an)\s+(?P<b>[a-z][a-z-]{2,})\W*"
)


def two_kinds(text: str, gold_raw: str, question: str) -> bool:
    """``text`` is two "a"/"an" nouns, one the gold's one-word kind and the other a kind beside it: "A tiger and a
    leopard." to what kind of animal Shere Khan is offers two (review 57: CORRECT); a class word or the question's
    noun beside it ("A tiger and a predator.") describes it.

    >>> two_kinds("A tiger and a leopard.", "Tiger", "What kind of animal is Shere Khan?")
    True
    >>> two_kinds("A tiger and a predator.", "Tiger", "What kind of animal is Shere Khan?")
    False
    """
    found = _TWO_NOUNS.fullmatch(text.strip())
    gold = re.findall(r"[a-z]+", gold_raw.casefold())
    if found is None or len(gold) != 1 or not _ASKS_A_KIND.search(question or ""):
        return False
    nouns = [_stem(found["a"].casefold()), _stem(found["b"].casefold())]
    if _stem(gold[0]) not in nouns:
        return False
    other = nouns[1] if nouns[0] == _stem(gold[0]) else nouns[0]
    return not _a_class_here(other, question) and _stem(gold[0]) not in _SAME_KIND.get(other, ())


def _a_class_here(noun: str, question: str) -> bool:
    """A class word, or a noun the question itself says ("An animal." to "What kind of animal ...")."""
    stemmed = _stem(noun)
    return (
        noun in CLASS_NOUNS
        or stemmed in CLASS_NOUNS
        or any(_stem(w) == stemmed for w in _WORD.findall(question.casefold()))
    )


_FAMILY_GOLD = re.compile(r"(?i)^\s*(?:the\s+)?(?P<family>[a-z][\w'-]+)\s+(?:brothers|sisters|twins|family)\s*$")


def family_members(text: str, gold_raw: str) -> bool:
    """The family a group gold names, said as the family: "The Shermans." for The Sherman Brothers (hostile pass
    58: INCORRECT). Members by given name ("Richard and Robert Sherman.") are not read: which given names belong
    takes knowledge ("Groucho and Karl Marx." for The Marx Brothers, review 39).

    >>> family_members("The Shermans.", "The Sherman Brothers"), family_members("Richard Sherman.", "Sherman Brothers")
    (True, False)
    """
    gold = _FAMILY_GOLD.match(gold_raw)
    return gold is not None and bool(re.fullmatch(rf"(?i)\s*(?:the\s+)?{re.escape(gold['family'])}(?:e?s)\W*", text))
