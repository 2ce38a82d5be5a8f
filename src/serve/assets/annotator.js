// The annotator's page: verdicts by button or key (1/2/3), u to withdraw a verdict, s to skip,
// arrows to move, h for one's items, ? for the keys, seconds spent per item (while the page is
// visible, at most a day). Each verdict and withdrawal names the version of the verdict the page
// showed: when another tab or session has changed it since, the server saves nothing and answers 409
// with the verdict as it stands, which the page shows, so that only a second press replaces it.
// Served as a file because the page's policy forbids inline script; every text it shows is set
// through textContent.
'use strict';

(() => {
  const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');
  const data = document.body.dataset;
  const itemId = Number(data.item) || null;
  const versionOf = (text) => (text === undefined || text === '' ? null : Number(text));
  /** The version of the verdict shown on this item, and of the one `u` withdraws (see GET /api/items/ITEM). */
  let version = versionOf(data.version);
  let undoVersion = versionOf(data.undoVersion);
  const form = document.getElementById('verdict');
  const status = document.getElementById('status');
  const correction = document.getElementById('correction');
  const right = document.getElementById('right');
  const note = document.getElementById('note');
  const guidelines = document.getElementById('guidelines');
  const help = document.getElementById('help');
  const history = document.getElementById('history');
  const search = document.getElementById('old-search');
  /** The server stores at most a day per item; a page left open longer is sent as a day. */
  const MAX_SECONDS = 86400;
  let sending = false;
  // A link renewed by `audit links` opens nothing any more (a 429 too answers only such a token: a
  // valid one is never refused). Once seen, nothing more is sent: each request would count as a
  // failed token of this machine, and "try again in 59 s" would not help anyway.
  const DEAD_LINK = 'this link no longer opens the audit (renewed?): ask the maintainer for your new link';
  const linkDead = (response) => response.status === 401 || response.status === 429;
  let deadLink = false;

  // Time counts while the page is visible: a tab left in the background is not time spent judging.
  let visibleMs = 0;
  let visibleSince = document.visibilityState === 'visible' ? performance.now() : null;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') visibleSince = performance.now();
    else if (visibleSince !== null) {
      visibleMs += performance.now() - visibleSince;
      visibleSince = null;
    }
  });
  const secondsSpent = () => {
    const ms = visibleMs + (visibleSince === null ? 0 : performance.now() - visibleSince);
    return Math.min(MAX_SECONDS, Math.round(ms / 100) / 10);
  };

  const go = (id) => {
    if (id) location.assign(`${location.pathname}?item=${encodeURIComponent(id)}`);
  };
  const say = (text, isError = false) => {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle('error', isError);
    status.setAttribute('role', isError ? 'alert' : 'status');
  };
  const authorized = (init = {}) => ({ ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });

  /**
   * Sends a request that changes something; on success goes to `then`, on a verdict changed since
   * the version sent to `stale` with the verdict as it stands, else says why, loudly.
   */
  async function send(path, init, then, stale) {
    if (sending) return;
    if (deadLink) {
      say(`Not saved: ${DEAD_LINK}`, true);
      return;
    }
    sending = true;
    say('saving…');
    try {
      const response = await fetch(path, authorized(init));
      if (!response.ok) {
        const reply = await response.json().catch(() => ({}));
        sending = false;
        deadLink = linkDead(response);
        if (deadLink) say(`Not saved: ${DEAD_LINK}`, true);
        else if (response.status === 409 && typeof reply.version === 'number') stale(reply);
        else say(`Not saved: ${reply.error ?? `the server answered ${response.status}`}`, true);
        return;
      }
      then();
    } catch {
      say('Not saved: the server cannot be reached. Try again.', true);
      sending = false;
    }
  }

  /** The "your verdict so far" line, as the server renders it, for the verdict now standing (none: no line). */
  function showVerdict(judgment) {
    document.querySelector('.previous-verdict')?.remove();
    if (!judgment) return;
    const line = document.createElement('p');
    line.className = 'previous-verdict';
    const strong = document.createElement('strong');
    strong.className = `verdict-${judgment.verdict}`;
    strong.textContent = judgment.verdict;
    const extra = judgment.label ? ` (label ${judgment.label})` : judgment.answer ? ` (answer ${judgment.answer})` : '';
    line.append('Your verdict so far: ', strong, extra);
    form.prepend(line);
  }

  /** The counter in the header, as the server counts now (a refused write brings it). */
  function showProgress({ judged, total, skipped }) {
    document.getElementById('progress').value = judged;
    document.getElementById('progress-text').textContent = `${judged} / ${total} judged`;
    const skippedCount = document.getElementById('skipped-count');
    skippedCount.textContent = `· ${skipped} skipped`;
    skippedCount.hidden = skipped === 0;
  }

  /**
   * This item's verdict as another tab or session left it (a refused write's reply): shown with the
   * progress it brings, and the next verdict or withdrawal acts on it knowingly.
   */
  function showStanding(reply) {
    version = reply.version;
    data.judged = reply.judgment ? '1' : '';
    if (reply.judgment) {
      data.undo = String(itemId);
      undoVersion = reply.version;
    }
    showVerdict(reply.judgment);
    showProgress(reply.progress);
    // "You withdrew / skipped this item" told of the item as loaded: the status line says what it is now.
    document.querySelectorAll('.notice').forEach((notice) => notice.remove());
    // A judged item is withdrawn, not skipped: the button offered follows the verdict now standing.
    document.getElementById('withdraw').hidden = !reply.judgment;
    document.getElementById('skip').hidden = Boolean(reply.judgment);
  }

  function changedElsewhere(reply) {
    showStanding(reply);
    say(
      reply.judgment
        ? `Not saved: since this page was loaded you judged this item ${reply.judgment.verdict} in another tab or on another device (shown above). Give your verdict again to replace it.`
        : 'Not saved: since this page was loaded you withdrew your verdict on this item in another tab or on another device. Give your verdict again to save it.',
      true,
    );
  }

  function judge(verdict) {
    if (!itemId) return;
    const body = { item: itemId, verdict, seconds: secondsSpent() };
    if (version !== null) body.version = version;
    const noteText = note.value.trim();
    if (noteText) body.note = noteText;
    if (verdict === 'wrong') {
      const value = right.value.trim();
      if (right.tagName === 'SELECT' && !value) {
        say('Choose the right label first: a wrong label is saved with the one it should be.', true);
        right.focus();
        return;
      }
      if (!value && !noteText) {
        say('Type the right answer, or a note saying why there is none.', true);
        right.focus();
        return;
      }
      if (value) body[right.name] = value;
    }
    // On to the first item still to do (after a withdrawal, that is where the annotator left off).
    void send('/api/judgments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, () => location.assign(location.pathname), changedElsewhere);
  }

  function withdraw() {
    const id = Number(data.undo) || null;
    if (!id) {
      say('No verdict of yours to withdraw yet.');
      return;
    }
    const query = new URLSearchParams();
    if (undoVersion !== null) query.set('version', String(undoVersion));
    // Withdrawing the last verdict from an item shown unjudged: refused if that item was judged meanwhile.
    if (itemId && id !== itemId && version !== null) {
      query.set('shown', String(itemId));
      query.set('shown_version', String(version));
    }
    void send(`/api/judgments/${id}?${query}`, { method: 'DELETE' }, () => go(id), (reply) => {
      if (reply.item !== id) {
        showStanding(reply);
        say(
          reply.judgment
            ? `Not withdrawn: since this page was loaded you judged this item ${reply.judgment.verdict} in another tab or on another device (shown above). Press u again to withdraw that verdict.`
            : 'Not withdrawn: since this page was loaded you judged this item and withdrew that verdict in another tab or on another device. Press u again to withdraw your last verdict.',
          true,
        );
        return;
      }
      // Withdrawn in another tab already: the item is where the withdrawal would have left it.
      if (!reply.judgment) return go(id);
      if (id === itemId) showStanding(reply);
      else showProgress(reply.progress);
      undoVersion = reply.version;
      say(`Not withdrawn: since this page was loaded that verdict was replaced by ${reply.judgment.verdict} in another tab or on another device. Press u again to withdraw it.`, true);
    });
  }

  function skip() {
    if (!itemId) return;
    if (data.judged) {
      location.assign(location.pathname);
      return;
    }
    void send('/api/skips', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item: itemId }) }, () => location.assign(location.pathname), changedElsewhere);
  }

  function askForCorrection() {
    if (!correction) return;
    correction.hidden = false;
    right.focus();
    say(right.tagName === 'SELECT' ? 'Choose the right label, then Enter.' : 'Type the right answer, then Enter.');
  }

  /** Closes the right answer's box without saving (what was typed stays for a second 3), the keys back on the page. */
  function closeCorrection() {
    correction.hidden = true;
    document.activeElement?.blur();
    say('');
  }

  const STATES = { judged: 'judged', skipped: 'skipped', todo: 'to do' };

  async function openHistory() {
    if (!history) return;
    if (!history.open) history.showModal();
    const table = document.getElementById('history-table');
    const summary = document.getElementById('history-status');
    const failed = (why) => {
      summary.textContent = `Your items could not be loaded: ${why}.`;
      summary.classList.add('error');
    };
    if (deadLink) return failed(DEAD_LINK);
    try {
      const response = await fetch('/api/items', authorized());
      if (!response.ok) {
        deadLink = linkDead(response);
        return failed(deadLink ? DEAD_LINK : `the server answered ${response.status}`);
      }
      const { items } = await response.json();
      const body = table.querySelector('tbody');
      body.replaceChildren(
        ...items.map((entry) => {
          const row = document.createElement('tr');
          row.className = `state-${entry.state}${entry.id === itemId ? ' current' : ''}`;
          const position = document.createElement('td');
          position.textContent = String(entry.position);
          const title = document.createElement('td');
          const link = document.createElement('a');
          link.href = `${location.pathname}?item=${encodeURIComponent(entry.id)}`;
          link.textContent = entry.title || entry.key;
          const key = document.createElement('small');
          key.textContent = ` ${entry.key}`;
          title.append(link, key);
          const state = document.createElement('td');
          state.textContent = entry.state === 'judged' ? `${STATES.judged}: ${entry.verdict}` : STATES[entry.state];
          // A judged item shows its verdict's colour: a wrong one in green read as correct.
          if (entry.state === 'judged') state.className = `verdict-${entry.verdict}`;
          row.append(position, title, state);
          return row;
        }),
      );
      const counts = { judged: 0, skipped: 0, todo: 0 };
      for (const entry of items) counts[entry.state]++;
      summary.textContent = `${counts.judged} judged · ${counts.skipped} skipped · ${counts.todo} to do`;
      summary.classList.remove('error');
      table.hidden = false;
      (table.querySelector('tr.current a') ?? table.querySelector('a'))?.focus();
    } catch {
      failed('the server cannot be reached');
    }
  }

  /** Opens the guidelines where they are seen: below a long item they opened out of sight, as if g did nothing. */
  function toggleGuidelines() {
    if (!guidelines) return;
    guidelines.open = !guidelines.open;
    if (guidelines.open) guidelines.scrollIntoView({ block: 'start' });
  }

  function toggle(dialog) {
    if (!dialog) return;
    if (dialog.open) dialog.close();
    else dialog.showModal();
  }

  // The old article of a `new` label item: the sentences holding every word typed, the words marked.
  const sentences = search ? [...document.querySelectorAll('#old-sentences li')].map((li) => ({ li, text: li.textContent })) : [];
  const searchCount = document.getElementById('old-search-count');
  const filterOld = () => {
    const words = search.value.toLowerCase().split(/\s+/).filter((word) => word.length > 0);
    let shown = 0;
    for (const { li, text } of sentences) {
      const lower = text.toLowerCase();
      const match = words.every((word) => lower.includes(word));
      li.hidden = !match;
      if (match) shown++;
      li.replaceChildren(...marked(text, lower, match ? words : []));
    }
    searchCount.textContent = words.length === 0 ? '' : `${shown} of ${sentences.length} sentences hold ${words.map((word) => `"${word}"`).join(' and ')}`;
  };
  search?.addEventListener('input', filterOld);
  // Esc in a search box empties it without an input event (the browser's own clearing): the list follows the box.
  search?.addEventListener('search', filterOld);

  /** The text as nodes, each occurrence of a word inside a <mark>. */
  function marked(text, lower, words) {
    const ranges = [];
    for (const word of words) for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + word.length)) ranges.push([at, at + word.length]);
    ranges.sort((a, b) => a[0] - b[0]);
    const nodes = [];
    let at = 0;
    for (const [start, end] of ranges) {
      if (start < at) continue;
      nodes.push(document.createTextNode(text.slice(at, start)));
      const mark = document.createElement('mark');
      mark.className = 'hit';
      mark.textContent = text.slice(start, end);
      nodes.push(mark);
      at = end;
    }
    nodes.push(document.createTextNode(text.slice(at)));
    return nodes;
  }

  form?.querySelectorAll('button[data-verdict]').forEach((button) => {
    button.addEventListener('click', () => (button.dataset.verdict === 'wrong' ? askForCorrection() : judge(button.dataset.verdict)));
  });
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    judge('wrong');
  });
  right?.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      judge('wrong');
    }
  });
  document.getElementById('withdraw')?.addEventListener('click', withdraw);
  document.getElementById('skip')?.addEventListener('click', skip);
  document.getElementById('open-history')?.addEventListener('click', () => void openHistory());
  document.getElementById('open-help')?.addEventListener('click', () => toggle(help));
  document.querySelectorAll('dialog [data-close]').forEach((button) => button.addEventListener('click', () => button.closest('dialog').close()));

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    // Escape in the right answer's box closes it unsaved, whichever of its fields has the focus.
    if (event.key === 'Escape' && correction?.contains(event.target)) {
      event.preventDefault();
      closeCorrection();
      return;
    }
    const typing = event.target instanceof HTMLElement && event.target.closest('input, textarea, select');
    if (typing) {
      if (event.key === 'Escape') event.target.blur();
      return;
    }
    // Over an open list only its own keys work; Escape closes it (the browser's dialog does).
    const open = document.querySelector('dialog[open]');
    const actions = open
      ? { '?': () => open === help && help.close(), h: () => open === history && history.close() }
      : {
          1: () => judge('correct'),
          2: () => judge('debatable'),
          3: askForCorrection,
          ArrowLeft: () => go(data.prev),
          ArrowRight: () => go(data.next),
          u: withdraw,
          s: skip,
          h: () => void openHistory(),
          '?': () => toggle(help),
          '/': () => search?.focus(),
          n: () => note?.focus(),
          g: toggleGuidelines,
        };
    // Caps Lock on turns u into U: the letter keys work either way.
    const action = actions[event.key] ?? actions[event.key.toLowerCase()];
    if (!action) return;
    event.preventDefault();
    action();
  });

  // The evidence is somewhere in a long article: bring the first mark into its box's view.
  document.querySelector('.article .scroll mark')?.scrollIntoView({ block: 'center' });
  window.scrollTo(0, 0);
})();
