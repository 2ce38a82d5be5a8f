// The annotator's page: verdicts by button or key (1/2/3), arrows to move, u to go back to the
// last verdict, seconds spent per item. Served as a file because the page's policy forbids
// inline script; every text it shows is set through textContent.
'use strict';

(() => {
  const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');
  const data = document.body.dataset;
  const itemId = Number(data.item) || null;
  const form = document.getElementById('verdict');
  const status = document.getElementById('status');
  const correction = document.getElementById('correction');
  const right = document.getElementById('right');
  const note = document.getElementById('note');
  const guidelines = document.getElementById('guidelines');
  const shownAt = performance.now();
  let sending = false;

  const go = (id) => {
    if (id) location.assign(`${location.pathname}?item=${encodeURIComponent(id)}`);
  };
  const say = (text) => {
    if (status) status.textContent = text;
  };

  async function judge(verdict) {
    if (!itemId || sending) return;
    const body = { item: itemId, verdict, seconds: Math.round((performance.now() - shownAt) / 100) / 10 };
    const noteText = note.value.trim();
    if (noteText) body.note = noteText;
    if (verdict === 'wrong') {
      const value = right.value.trim();
      if (!value && !noteText) {
        say(right.tagName === 'SELECT' ? 'choose the right label' : 'type the right answer, or a note saying why there is none');
        right.focus();
        return;
      }
      if (value) body[right.name] = value;
    }
    sending = true;
    say('saving…');
    try {
      const response = await fetch('/api/judgments', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        const reply = await response.json().catch(() => ({}));
        say(`not saved: ${reply.error ?? response.status}`);
        sending = false;
        return;
      }
      // On to the first item not judged yet (after an undo, that is where the annotator left off).
      location.assign(location.pathname);
    } catch {
      say('not saved: the server cannot be reached; try again');
      sending = false;
    }
  }

  function askForCorrection() {
    if (!correction) return;
    correction.hidden = false;
    right.focus();
    say(right.tagName === 'SELECT' ? 'choose the right label, then Enter' : 'type the right answer, then Enter');
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

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = event.target instanceof HTMLElement && event.target.closest('input, textarea, select');
    if (typing) {
      if (event.key === 'Escape') event.target.blur();
      return;
    }
    const actions = {
      1: () => judge('correct'),
      2: () => judge('debatable'),
      3: askForCorrection,
      ArrowLeft: () => go(data.prev),
      ArrowRight: () => go(data.next),
      u: () => go(data.undo),
      n: () => note?.focus(),
      g: () => guidelines && (guidelines.open = !guidelines.open),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  // The evidence is somewhere in a long article: bring the first mark into its box's view.
  document.querySelector('.article .scroll mark')?.scrollIntoView({ block: 'center' });
  window.scrollTo(0, 0);
})();
