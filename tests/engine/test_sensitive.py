"""Sensitive content without the obvious keyword (review of the sensitive-words module).

Allergies and intolerances in every language's spelling, medication by name or dose form, access
codes named only by what they open ("the garage door opens with 1 9 8 4"), password-like tokens
and the last digits of a payment card. Ordinary household facts with numbers stay unflagged.
"""

from __future__ import annotations

import pytest

from custom_components.memory.engine.sensitive import Sensitivity, classify

CREDENTIAL, PAYMENT, HEALTH = Sensitivity.CREDENTIAL, Sensitivity.PAYMENT, Sensitivity.HEALTH

FLAGGED = [
    # allergies: es/pt "alérgica"/"alergia", not only "allerg-"
    ("en", "Anna is allergic to peanuts.", HEALTH),
    ("de", "Anna ist allergisch gegen Erdnüsse.", HEALTH),
    ("de", "Anna hat eine Nussallergie.", HEALTH),
    ("it", "Anna è allergica alle arachidi.", HEALTH),
    ("fr", "Anna est allergique aux arachides.", HEALTH),
    ("es", "Anna es alérgica a los cacahuetes.", HEALTH),
    ("es", "Anna tiene alergia al marisco.", HEALTH),
    ("en", "Mia always carries an EpiPen.", HEALTH),
    # intolerances
    ("en", "Julian is lactose intolerant.", HEALTH),
    ("en", "Julian has a gluten intolerance.", HEALTH),
    ("de", "Julian hat eine Laktoseintoleranz.", HEALTH),
    ("de", "Oma hat eine Glutenunverträglichkeit.", HEALTH),
    ("de", "Anna verträgt keine Nüsse.", HEALTH),
    ("it", "Julian ha un'intolleranza al lattosio.", HEALTH),
    ("it", "Anna non tollera il glutine.", HEALTH),
    ("fr", "Julian a une intolérance au lactose.", HEALTH),
    ("es", "Julian tiene intolerancia a la lactosa.", HEALTH),
    ("es", "Anna no tolera el gluten.", HEALTH),
    ("es", "Anna es celíaca.", HEALTH),
    # medication named only by the drug
    ("en", "Julian takes Ramipril every morning.", HEALTH),
    ("de", "Julian nimmt morgens Ramipril.", HEALTH),
    ("it", "Julian prende il ramipril ogni mattina.", HEALTH),
    ("fr", "Julian prend du ramipril tous les matins.", HEALTH),
    ("es", "Julian toma ramipril cada mañana.", HEALTH),
    ("en", "Grandpa takes metoprolol and atorvastatin.", HEALTH),
    ("de", "Opa nimmt Pantoprazol vor dem Frühstück.", HEALTH),
    ("en", "Julian takes 5 mg at breakfast.", HEALTH),
    # blood thinners, insulin, inhalers
    ("en", "Grandpa is on blood thinners.", HEALTH),
    ("de", "Opa nimmt Blutverdünner.", HEALTH),
    ("it", "Il nonno prende anticoagulanti.", HEALTH),
    ("fr", "Papi prend des anticoagulants.", HEALTH),
    ("es", "El abuelo toma anticoagulantes.", HEALTH),
    ("en", "Grandma injects insulin before lunch.", HEALTH),
    ("de", "Oma spritzt Insulin vor dem Mittagessen.", HEALTH),
    ("it", "La nonna fa l'insulina prima di pranzo.", HEALTH),
    ("fr", "Mamie fait son insuline avant le déjeuner.", HEALTH),
    ("es", "La abuela se pone insulina antes de comer.", HEALTH),
    ("en", "Mia's inhaler is in her school bag.", HEALTH),
    ("de", "Mias Inhalator liegt in der Schultasche.", HEALTH),
    ("it", "L'inalatore di Mia è nello zaino.", HEALTH),
    ("fr", "L'inhalateur de Mia est dans son cartable.", HEALTH),
    ("es", "El inhalador de Mia está en la mochila.", HEALTH),
    # medication words and dose forms
    ("en", "The painkillers are in the top drawer.", HEALTH),
    ("en", "Grandpa's sleeping tablets are in the bathroom.", HEALTH),
    ("de", "Die Pille liegt im Bad.", HEALTH),
    ("de", "Die Schlaftabletten sind im Bad.", HEALTH),
    ("de", "Die Dosis steht auf der Packung.", HEALTH),
    ("de", "Das Arzneimittel steht im Kühlschrank.", HEALTH),
    ("it", "Le pastiglie del nonno sono in cucina.", HEALTH),
    ("it", "Il nonno prende due compresse al giorno.", HEALTH),
    ("it", "La medicina della nonna è sul tavolo.", HEALTH),
    ("fr", "Les comprimés de papi sont dans la cuisine.", HEALTH),
    ("fr", "Les gélules de mamie sont dans le tiroir.", HEALTH),
    ("es", "Las pastillas del abuelo están en la cocina.", HEALTH),
    ("es", "Los comprimidos de la abuela están en el cajón.", HEALTH),
    # alarm codes without the word "code"
    ("en", "The alarm is disarmed with 2580.", CREDENTIAL),
    ("de", "Die Alarmanlage schaltet man mit 2580 aus.", CREDENTIAL),
    ("it", "L'allarme si disattiva con 2580.", CREDENTIAL),
    ("fr", "L'alarme se désactive avec 2580.", CREDENTIAL),
    ("es", "La alarma se desactiva con 2580.", CREDENTIAL),
    # doors and gates, digits said one by one
    ("en", "the garage door opens with 1 9 8 4.", CREDENTIAL),
    ("de", "Das Garagentor geht mit 1 9 8 4 auf.", CREDENTIAL),
    ("it", "Il garage si apre con 1 9 8 4.", CREDENTIAL),
    ("fr", "La porte du garage s'ouvre avec 1 9 8 4.", CREDENTIAL),
    ("es", "La puerta del garaje se abre con 1 9 8 4.", CREDENTIAL),
    # key safes and locks
    ("en", "the key safe opens with 3141", CREDENTIAL),
    ("de", "Der Schlüsseltresor: 3141.", CREDENTIAL),
    ("it", "La cassetta delle chiavi è 3141.", CREDENTIAL),
    ("fr", "La boîte à clés, c'est 3141.", CREDENTIAL),
    ("es", "La caja de llaves es 3141.", CREDENTIAL),
    ("en", "Anna's bike lock is 5502.", CREDENTIAL),
    ("de", "Das Fahrradschloss ist 5502.", CREDENTIAL),
    ("it", "Il lucchetto della bici è 5502.", CREDENTIAL),
    ("fr", "Le cadenas du vélo, c'est 5502.", CREDENTIAL),
    ("es", "El candado de la bici es 5502.", CREDENTIAL),
    # "opens with <digits>" whatever it opens
    ("en", "The blue box opens with 731.", CREDENTIAL),
    ("de", "Die Kiste öffnet sich mit 731.", CREDENTIAL),
    ("it", "La scatola si apre con 731.", CREDENTIAL),
    ("fr", "La boîte s'ouvre avec 731.", CREDENTIAL),
    ("es", "La caja se abre con 731.", CREDENTIAL),
    # password-like tokens next to a key or network word
    ("en", "the key is sunflower42", CREDENTIAL),
    ("de", "Der WLAN-Schlüssel ist sonnenblume42.", CREDENTIAL),
    ("it", "La chiave del wifi è girasole42.", CREDENTIAL),
    ("fr", "La clé wifi est tournesol42.", CREDENTIAL),
    ("es", "La llave es girasol42.", CREDENTIAL),
    # the last digits of a payment card
    ("en", "Visa ends in 4242", PAYMENT),
    ("en", "My Mastercard ends with 5555.", PAYMENT),
    ("en", "The Amex is 3782.", PAYMENT),
    ("de", "Die EC-Karte endet auf 1234.", PAYMENT),
    ("de", "Unsere Girocard: 1234.", PAYMENT),
    ("it", "La mia carta finisce con 9876.", PAYMENT),
    ("it", "Il bancomat finisce con 9876.", PAYMENT),
    ("fr", "Ma carte bleue se termine par 4242.", PAYMENT),
    ("es", "Mi tarjeta termina en 4242.", PAYMENT),
]

ORDINARY = [
    # the review's own
    "The bins go out on 3 May.",
    "the plumber comes at 9",
    "Anna lives at Lindenstraße 12.",
    "the drill is on shelf 2",
    # near the new words: times, years, dates, prices, measures
    "The alarm goes off at 0630.",
    "The alarm system was installed in 2019.",
    "Die Alarmanlage gibt es seit 2019.",
    "L'allarme è stato installato nel 2019.",
    "L'alarme a été installée en 2019.",
    "La alarma se instaló en 2019.",
    "The lock was changed in March 2021.",
    "Die Haustür wurde im März 2023 gestrichen.",
    "The gate was painted on 3 May 2024.",
    "The front door is 210 cm tall.",
    "Das Garagentor ist 250 cm breit.",
    "Il cancello è costato 1200 euro.",
    "La porte du garage a coûté 1500 euros.",
    "La puerta mide 210 cm.",
    "The garage holds 2 cars.",
    "The safe is behind the painting in the study.",
    "Die Haustür klemmt, fest drücken.",
    "La porta del bagno si chiude male.",
    "Le portail s'ouvre à 7 h.",
    "La puerta del garaje se abre a las 7.",
    "The information desk opens at 9.",
    "In April we repaint the front door.",
    "The spare key is in drawer 2.",
    "Der Ersatzschlüssel liegt in der blauen Dose.",
    "The heating is set to 21 degrees.",
    "We live in flat 104, the door is green.",
    "Il portone si chiude alle 22.",
    "La porta del garage è rotta dal 2021.",
    "La porte d'entrée est bleue depuis 2018.",
    "Die Tür ist aus dem Jahr 1920.",
    "The doors open at 1900 for the school play.",
    "The dog eats 300 g of food, keep the gate closed.",
    "The router is in the hallway, next to the 3 plugs.",
    # cards and visas that are no payment data
    "Anna's visa expires in 2027.",
    "The Mastercard bill comes on the 5th.",
    "Die Karte für das Konzert kostet 120 Euro.",
    # habits that are no medication; household tablets
    "Anna takes the bus every morning.",
    "Julian takes the dog out every morning.",
    "Anna nimmt morgens den Bus.",
    "The tablet charges in the kitchen.",
    "The dishwasher tablets are under the sink.",
    "Le pastiglie per la lavastoviglie sono sotto il lavello.",
    "Las pastillas para el lavavajillas están debajo del fregadero.",
    "The pasta needs 500 g of flour.",
    "Die Dosen für den Garten stehen im Keller.",
    "The Nespresso capsules are in the drawer.",
    "Julian takes vitamin D in winter.",
    # a network's name is no secret
    "Our wifi guest network is called Graufuchs55.",
    "Unser WLAN für Gäste heißt jetzt Rotfuchs88.",
]


@pytest.mark.parametrize(("lang", "text", "kind"), FLAGGED)
def test_sensitive_without_the_obvious_keyword(lang: str, text: str, kind: Sensitivity) -> None:
    assert kind in classify(text), (lang, text)


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_facts_near_those_words_stay_unflagged(text: str) -> None:
    assert classify(text) == frozenset()
