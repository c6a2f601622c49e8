#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes resources/samples/tiny_stories_generated.txt: simple children's stories built from
templates (characters, places, objects, small plots), separated by <|endoftext|>.

The reference transformer needs a text the project may ship; every sentence here comes from the
templates below, so the sample is ours. The seed is fixed, so the output is the same on every run
and the committed file can be regenerated and compared.

Usage: generate_sample_stories.py [--out PATH] [--stories N] [--seed S]
"""

import argparse
import os
import random

NAMES = ["Lily", "Tom", "Mia", "Ben", "Sara", "Max", "Anna", "Sam", "Lucy", "Jack", "Emma", "Leo", "Zoe", "Tim",
         "Ella", "Noah", "Ruby", "Finn", "Ivy", "Oscar"]
ANIMALS = [("a little dog", "the dog"), ("a small cat", "the cat"), ("a happy bird", "the bird"),
           ("a tiny mouse", "the mouse"), ("a brown bear", "the bear"), ("a slow turtle", "the turtle"),
           ("a kind rabbit", "the rabbit"), ("a funny frog", "the frog"), ("a big duck", "the duck")]
PLACES = ["the park", "the garden", "the beach", "the forest", "the farm", "the school", "the river", "the hill",
          "the zoo", "the big house", "the little town", "the meadow"]
OBJECTS = [("a red ball", "the ball"), ("a blue kite", "the kite"), ("a shiny stone", "the stone"),
           ("a yellow hat", "the hat"), ("a toy boat", "the boat"), ("a big box", "the box"),
           ("a pretty flower", "the flower"), ("a green apple", "the apple"), ("a soft blanket", "the blanket"),
           ("an old book", "the book"), ("a small key", "the key"), ("a white feather", "the feather")]
FEELINGS = ["happy", "sad", "scared", "excited", "tired", "proud", "surprised", "curious"]
WEATHER = ["The sun was bright.", "It was a rainy day.", "The wind was blowing.", "The sky was blue.",
           "It was a cold morning.", "It was a warm afternoon."]
ADJ_DAY = ["One day", "Once upon a time", "One morning", "Every day", "Long ago", "One sunny day"]
FRIEND_WORDS = ["friend", "best friend", "new friend", "little brother", "little sister", "mom", "dad", "grandma"]
MORALS = ["They learned that sharing makes everyone happy.", "From that day on, they were always kind to each other.",
          "They knew that it is good to help a friend.", "It was the best day ever.",
          "They learned to be careful next time.", "And they all lived happily together.",
          "They promised to always say sorry.", "They smiled and went home to sleep."]


def pronoun(name):
    return "she" if name in ("Lily", "Mia", "Sara", "Anna", "Lucy", "Emma", "Zoe", "Ella", "Ruby", "Ivy") else "he"


def cap(text):
    return text[0].upper() + text[1:]


def lost_object(rng):
    n = rng.choice(NAMES)
    p = pronoun(n)
    obj, the_obj = rng.choice(OBJECTS)
    place = rng.choice(PLACES)
    friend = rng.choice([x for x in NAMES if x != n])
    return [f"{rng.choice(ADJ_DAY)}, {n} went to {place}.", rng.choice(WEATHER),
            f"{cap(p)} had {obj}. {cap(p)} loved {the_obj} very much.",
            f"But then {p} lost {the_obj}. {n} was {rng.choice(['sad', 'scared'])}.",
            f"{n} looked under a tree. {cap(p)} looked behind a rock. {the_obj.capitalize()} was not there.",
            f"Then {friend} came. \"Why are you sad?\" asked {friend}.",
            f"\"I lost {the_obj},\" said {n}. \"Can you help me?\"",
            f"\"Yes, I will help you,\" said {friend}. They looked together.",
            f"At last {friend} found {the_obj} near {rng.choice(PLACES)}.",
            f"{n} was so {rng.choice(['happy', 'glad'])}. \"Thank you!\" {p} said.", rng.choice(MORALS)]


def animal_friend(rng):
    n = rng.choice(NAMES)
    p = pronoun(n)
    animal, the_animal = rng.choice(ANIMALS)
    place = rng.choice(PLACES)
    feeling = rng.choice(FEELINGS)
    return [f"{rng.choice(ADJ_DAY)}, {n} saw {animal} in {place}.",
            f"{the_animal.capitalize()} looked {feeling}.",
            f"{n} said, \"Hello! Do you want to play with me?\"",
            f"{the_animal.capitalize()} did not say anything, but it came closer.",
            f"{n} gave {the_animal} some food. {the_animal.capitalize()} ate it all.",
            f"Then they played and ran around {place} until the sun went down.",
            f"{n} and {the_animal} became good friends.", rng.choice(MORALS)]


def sharing(rng):
    a = rng.choice(NAMES)
    b = rng.choice([x for x in NAMES if x != a])
    obj, the_obj = rng.choice(OBJECTS)
    return [f"{a} and {b} were playing at {rng.choice(PLACES)}.", rng.choice(WEATHER),
            f"{a} had {obj}. {b} wanted to play with {the_obj} too.",
            f"\"No, it is mine!\" said {a}. {b} felt {rng.choice(['sad', 'angry'])} and started to cry.",
            f"{a} saw that {b} was sad. {cap(pronoun(a))} thought for a moment.",
            f"\"I am sorry,\" said {a}. \"We can play with {the_obj} together.\"",
            f"{b} smiled. They took turns with {the_obj} and had lots of fun.", rng.choice(MORALS)]


def adventure(rng):
    n = rng.choice(NAMES)
    p = pronoun(n)
    place = rng.choice(PLACES)
    obj, the_obj = rng.choice(OBJECTS)
    animal, the_animal = rng.choice(ANIMALS)
    return [f"{rng.choice(ADJ_DAY)}, {n} wanted to go on an adventure.",
            f"{cap(p)} took {obj} and walked to {place}.", rng.choice(WEATHER),
            f"On the way, {p} met {animal}. \"Where are you going?\" asked {the_animal}.",
            f"\"I am going to find something special,\" said {n}.",
            f"\"Can I come with you?\" asked {the_animal}. \"Yes!\" said {n}.",
            f"They walked and walked. Soon they were very {rng.choice(['tired', 'hungry'])}.",
            f"They sat down to rest, and {n} shared {the_obj} with {the_animal}.",
            f"Then they saw a big {rng.choice(['rainbow', 'tree', 'star', 'castle'])}. It was so beautiful!",
            f"{n} felt {rng.choice(['proud', 'happy', 'excited'])}. {rng.choice(MORALS)}"]


def helping(rng):
    n = rng.choice(NAMES)
    p = pronoun(n)
    who = rng.choice(FRIEND_WORDS)
    task = rng.choice(["clean the room", "bake a cake", "plant a seed", "fix a toy", "wash the car", "paint a picture"])
    return [f"{rng.choice(ADJ_DAY)}, {n}'s {who} wanted to {task}.",
            f"{n} said, \"I want to help!\"",
            f"At first it was hard. {n} made a mess and felt {rng.choice(['sad', 'silly'])}.",
            f"\"It is okay,\" said the {who}. \"Let us try again.\"",
            f"They tried again, slowly and carefully. This time it worked!",
            f"{n} was very {rng.choice(['proud', 'happy'])} of {'her' if p == 'she' else 'his'} work.",
            rng.choice(MORALS)]


PLOTS = [lost_object, animal_friend, sharing, adventure, helping]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.join(here, "..", "..", "..", "resources", "samples", "tiny_stories_generated.txt")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.normpath(default_out))
    parser.add_argument("--stories", type=int, default=900)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    stories = [" ".join(rng.choice(PLOTS)(rng)) for _ in range(args.stories)]
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n<|endoftext|>\n".join(stories) + "\n")


if __name__ == "__main__":
    main()
