"""DailyQA's infobox extraction, for the infobox benchmark to run beside ours: the paper reads
infoboxes into dictionaries with pywikibot, whose template reader is mwparserfromhell (its C
tokenizer): parse the article, take every template (nested ones too) named "infobox ...", and map
each parameter's name to its value, as raw wikitext (DailyQA) and as plain text (strip_code).
Reads one JSON string per line (a revision's wikitext) on standard input; prints one JSON line."""
import json
import sys
import time

import mwparserfromhell


def infoboxes(text, plain):
    found = []
    for template in mwparserfromhell.parse(text).filter_templates():
        if not str(template.name).strip().lower().startswith('infobox'):
            continue
        found.append({str(param.name).strip(): (param.value.strip_code() if plain else str(param.value)).strip() for param in template.params})
    return found


def timed(texts, plain):
    # CPU time, as the benchmark times its own side: the machine is shared, and wall time would measure the neighbours.
    started = time.process_time()
    count = sum(len(infoboxes(text, plain)) for text in texts)
    return time.process_time() - started, count


texts = [json.loads(line) for line in sys.stdin if line.strip()]
infoboxes(texts[0], True)
raw_seconds, raw_count = timed(texts, False)
plain_seconds, plain_count = timed(texts, True)
print(json.dumps({'revisions': len(texts), 'raw_seconds': raw_seconds, 'raw_infoboxes': raw_count, 'plain_seconds': plain_seconds, 'plain_infoboxes': plain_count,
                  'version': mwparserfromhell.__version__, 'c_tokenizer': mwparserfromhell.parser.use_c}))
