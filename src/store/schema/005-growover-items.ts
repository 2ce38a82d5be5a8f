import type { Migration } from './migration.js';

export const growoverItems: Migration = {
  version: 5,
  name: 'GrowOVER QA items, dialogues and turns with their evidence per snapshot, retirements and rejects',
  sql: `
      -- A QA item as generated. type: how it was made (initial: a new article's paragraph; new: a run of
      -- new sentences; changed: a changed sentence, with the answer of the old wording too). Retired
      -- when its evidence stops being unchanged, at retired_snapshot.
      CREATE TABLE growover_qa (
        id TEXT PRIMARY KEY,
        snapshot TEXT NOT NULL REFERENCES snapshots (name),
        month TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        title TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('initial', 'new', 'changed')),
        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        old_answer TEXT,
        old_text TEXT,
        status TEXT NOT NULL CHECK (status IN ('active', 'retired')),
        retired_snapshot TEXT,
        retired_reason TEXT,
        prompt TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        seed TEXT NOT NULL
      );

      -- A dialogue as generated from one paragraph; its turns retire one by one.
      CREATE TABLE growover_dialogues (
        id TEXT PRIMARY KEY,
        snapshot TEXT NOT NULL REFERENCES snapshots (name),
        month TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        title TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('initial', 'new')),
        paragraph INTEGER NOT NULL,
        prompt TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        seed TEXT NOT NULL
      );

      -- type: the turn's evidence when made (initial, or the label of its sentence: unchanged, changed, new).
      CREATE TABLE growover_turns (
        dialogue_id TEXT NOT NULL REFERENCES growover_dialogues (id),
        turn INTEGER NOT NULL,
        user_text TEXT NOT NULL,
        expert_text TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('initial', 'unchanged', 'new', 'changed')),
        status TEXT NOT NULL CHECK (status IN ('active', 'retired')),
        retired_snapshot TEXT,
        retired_reason TEXT,
        PRIMARY KEY (dialogue_id, turn)
      );

      -- Where an item (a QA id, or a turn as "dialogue id#turn") stands in each snapshot it is active
      -- in: the article's page id there, its evidence as sentence indices (snapshot_sentences.idx) and
      -- its type that month (the creation type, then 'unchanged').
      CREATE TABLE growover_evidence (
        item_id TEXT NOT NULL,
        snapshot TEXT NOT NULL REFERENCES snapshots (name),
        kind TEXT NOT NULL CHECK (kind IN ('qa', 'turn')),
        page_id INTEGER NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('initial', 'unchanged', 'new', 'changed')),
        indices TEXT NOT NULL,
        PRIMARY KEY (item_id, snapshot)
      );
      CREATE INDEX growover_evidence_article ON growover_evidence (snapshot, page_id);

      -- Generated items that failed validation (or generation), with the reason and what came back.
      CREATE TABLE growover_rejects (
        id TEXT PRIMARY KEY,
        snapshot TEXT NOT NULL REFERENCES snapshots (name),
        page_id INTEGER NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('qa', 'dialogue')),
        type TEXT NOT NULL,
        reason TEXT NOT NULL,
        reply TEXT,
        prompt TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        seed TEXT NOT NULL
      );

      -- An article finished by a stage (maintain or generate) for a snapshot, written with its items:
      -- a resumed run skips it.
      CREATE TABLE growover_done (
        snapshot TEXT NOT NULL REFERENCES snapshots (name),
        page_id INTEGER NOT NULL,
        stage TEXT NOT NULL,
        PRIMARY KEY (snapshot, page_id, stage)
      );
  `,
};
