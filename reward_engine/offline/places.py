"""Places that hold other places: continents, countries and first-level regions, by how large they are.

The grader reads one name after the gold ("Paris, France", "Mount Everest Nepal") as a qualifier saying where
the gold lies, not as a second guess. Only a place larger than the gold can say that: "France" after Paris,
"Nepal" after Mount Everest, "Asia" after Nepal; "Lyon" after Paris or "China" after Nepal is another answer of
the gold's own kind (issue #74's hostile pass, H2). Without a gazetteer of cities the rules cannot tell a city
from a person, so a name this list does not hold is level 0: the level of anything that is not a region,
country or continent (a city, a mountain, a person, a work).

English names only, normalised as ``text_form.normalize`` writes them (lower case, no accents, punctuation and
articles dropped: "Côte d'Ivoire" is "cote d ivoire").
"""

from __future__ import annotations

import functools

from reward_engine.offline.text_form import normalize

REGION, COUNTRY, CONTINENT = 1, 2, 3

_CONTINENTS = """
Africa; Antarctica; Asia; Europe; North America; South America; Central America; Latin America; Oceania;
Australasia; the Americas; Eurasia; the Middle East; the Near East; the Far East; Scandinavia; the Caribbean;
the Balkans; the Arctic; Southeast Asia; East Asia; South Asia; Central Asia; West Africa; East Africa;
North Africa; Southern Africa; Western Europe; Eastern Europe; Northern Europe; Southern Europe; Central Europe
"""

_COUNTRIES = """
Afghanistan; Albania; Algeria; Andorra; Angola; Antigua and Barbuda; Argentina; Armenia; Australia; Austria;
Azerbaijan; Bahamas; Bahrain; Bangladesh; Barbados; Belarus; Belgium; Belize; Benin; Bhutan; Bolivia;
Bosnia and Herzegovina; Bosnia; Botswana; Brazil; Brunei; Bulgaria; Burkina Faso; Burundi; Cambodia; Cameroon;
Canada; Cape Verde; Cabo Verde; Central African Republic; Chad; Chile; China; People's Republic of China;
Colombia; Comoros; Congo; Democratic Republic of the Congo; DR Congo; Costa Rica; Croatia; Cuba; Cyprus;
Czech Republic; Czechia; Denmark; Djibouti; Dominica; Dominican Republic; East Timor; Timor-Leste; Ecuador;
Egypt; El Salvador; Equatorial Guinea; Eritrea; Estonia; Eswatini; Swaziland; Ethiopia; Fiji; Finland; France;
Gabon; Gambia; Georgia; Germany; Ghana; Greece; Grenada; Guatemala; Guinea; Guinea-Bissau; Guyana; Haiti;
Honduras; Hungary; Iceland; India; Indonesia; Iran; Iraq; Ireland; Israel; Italy; Ivory Coast; Côte d'Ivoire;
Jamaica; Japan; Jordan; Kazakhstan; Kenya; Kiribati; Kosovo; Kuwait; Kyrgyzstan; Laos; Latvia; Lebanon;
Lesotho; Liberia; Libya; Liechtenstein; Lithuania; Luxembourg; Madagascar; Malawi; Malaysia; Maldives; Mali;
Malta; Marshall Islands; Mauritania; Mauritius; Mexico; Micronesia; Moldova; Monaco; Mongolia; Montenegro;
Morocco; Mozambique; Myanmar; Burma; Namibia; Nauru; Nepal; Netherlands; Holland; New Zealand; Nicaragua;
Niger; Nigeria; North Korea; North Macedonia; Macedonia; Norway; Oman; Pakistan; Palau; Palestine; Panama;
Papua New Guinea; Paraguay; Peru; Philippines; Poland; Portugal; Qatar; Romania; Russia; Russian Federation;
Rwanda; Saint Kitts and Nevis; Saint Lucia; Saint Vincent and the Grenadines; Samoa; San Marino;
São Tomé and Príncipe; Saudi Arabia; Senegal; Serbia; Seychelles; Sierra Leone; Singapore; Slovakia;
Slovenia; Solomon Islands; Somalia; South Africa; South Korea; Korea; South Sudan; Spain; Sri Lanka; Sudan;
Suriname; Sweden; Switzerland; Syria; Taiwan; Tajikistan; Tanzania; Thailand; Togo; Tonga;
Trinidad and Tobago; Tunisia; Turkey; Türkiye; Turkmenistan; Tuvalu; Uganda; Ukraine; United Arab Emirates;
UAE; United Kingdom; UK; Great Britain; Britain; United States; United States of America; USA; U.S.A.; U.S.;
America; Uruguay; Uzbekistan; Vanuatu; Vatican City; Vatican; Venezuela; Vietnam; Yemen; Zambia; Zimbabwe;
Greenland; Puerto Rico; Hong Kong; Macau; Soviet Union; USSR; Yugoslavia; Czechoslovakia; East Germany;
West Germany; Prussia; Ottoman Empire; Persia; Siam; Ceylon; Rhodesia; Zaire
"""

_REGIONS = {  # first-level regions by the country that holds them ("" for ranges across countries)
    "united states": """Alabama; Alaska; Arizona; Arkansas; California; Colorado; Connecticut; Delaware; Florida;
    Georgia; Hawaii; Idaho; Illinois; Indiana; Iowa; Kansas; Kentucky; Louisiana; Maine; Maryland; Massachusetts;
    Michigan;
    Minnesota; Mississippi; Missouri; Montana; Nebraska; Nevada; New Hampshire; New Jersey; New Mexico; New York State;
    North Carolina; North Dakota; Ohio; Oklahoma; Oregon; Pennsylvania; Rhode Island; South Carolina; South Dakota;
    Tennessee; Texas; Utah; Vermont; Virginia; Washington State; West Virginia; Wisconsin; Wyoming; New York;
    Washington""",
    "canada": """Ontario; Quebec; British Columbia; Alberta; Manitoba; Saskatchewan; Nova Scotia; New Brunswick;
    Newfoundland; Prince Edward Island; Yukon; Nunavut; Northwest Territories""",
    "australia": """New South Wales; Victoria; Queensland; Tasmania; Western Australia; South Australia;
    Northern Territory""",
    "united kingdom": "England; Scotland; Wales; Northern Ireland",
    "germany": "Bavaria; Saxony",
    "spain": "Catalonia; Andalusia; Basque Country; Galicia",
    "italy": "Tuscany; Lombardy; Sicily; Sardinia",
    "france": "Corsica; Brittany; Normandy; Provence; Île-de-France",
    "belgium": "Flanders; Wallonia",
    "russia": "Siberia",
    "china": "Tibet",
    "india": "Kerala",
    "japan": "Hokkaido; Honshu; Kyushu",
    "czech republic": "Bohemia; Moravia",
    "romania": "Transylvania",
    "turkey": "Anatolia",
    "": """Kashmir; Punjab; Bengal; Patagonia; Lapland; Crimea; Silesia; the Himalayas; the Alps; the Andes;
    the Rockies; the Rocky Mountains; the Pyrenees; the Karakoram; the Urals; the Carpathians""",
}


@functools.cache
def _levels() -> dict[str, int]:
    out: dict[str, int] = {}
    for level, names in ((REGION, ";".join(_REGIONS.values())), (COUNTRY, _COUNTRIES), (CONTINENT, _CONTINENTS)):
        for name in names.split(";"):
            if normalize(name):
                out[normalize(name)] = level
    return out


# regions and countries that are also the name of a city: after a city gold, "New York" may be a second city
_ALSO_CITIES = """New York; Washington; Quebec; Mexico; Luxembourg; Monaco; Singapore; Djibouti; San Marino;
Vatican City; Kuwait; Panama; Guatemala; Hong Kong; Macau"""


@functools.cache
def _also_cities() -> frozenset[str]:
    return frozenset(normalize(n) for n in _ALSO_CITIES.split(";"))


def also_a_city(name: str) -> bool:
    """A region or country that a city is also called: "New York", "Quebec", "Singapore".

    >>> also_a_city("New York"), also_a_city("Texas"), also_a_city("Quebec")
    (True, False, True)
    """
    return normalize(name) in _also_cities()


@functools.cache
def _all_levels() -> dict[str, frozenset[int]]:
    out: dict[str, set[int]] = {}
    for level_, names in ((REGION, ";".join(_REGIONS.values())), (COUNTRY, _COUNTRIES), (CONTINENT, _CONTINENTS)):
        for name in names.split(";"):
            if normalize(name):
                out.setdefault(normalize(name), set()).add(level_)
    return {k: frozenset(v) for k, v in out.items()}


def levels(name: str) -> frozenset[int]:
    """Every size a place ``name`` may name: Georgia is a country and a US state.

    >>> sorted(levels("Georgia")), sorted(levels("France")), sorted(levels("Lyon"))
    ([1, 2], [2], [])
    """
    return _all_levels().get(normalize(name), frozenset())


def level(name: str) -> int:
    """How large a place ``name`` (any form: it is normalised here) names: ``CONTINENT``, ``COUNTRY``, ``REGION``,
    or 0 for anything else (a city, a mountain, a person, a name this list does not hold).

    >>> level("France"), level("Nepal"), level("Asia"), level("Texas"), level("Lyon"), level("Mozart")
    (2, 2, 3, 1, 0, 0)
    """
    return _levels().get(normalize(name), 0)


@functools.cache
def _region_countries() -> dict[str, str]:
    return {normalize(r): c for c, names in _REGIONS.items() if c for r in names.split(";") if normalize(r)}


def country_of(region: str) -> str | None:
    """The country a first-level region lies in ("Texas": "united states"), or None (a range across countries,
    a name this list does not hold).

    >>> country_of("Texas"), country_of("Ontario"), country_of("the Alps"), country_of("Lyon")
    ('united states', 'canada', None, None)
    """
    return _region_countries().get(normalize(region))
