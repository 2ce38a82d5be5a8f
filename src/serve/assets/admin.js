// The maintainer's page: the panel is fetched again every few seconds as markup the server
// rendered and escaped, so the figures and disputed items stay live without a second renderer.
// A link that no longer opens (renewed by `audit links`) stops the refreshing: each refused
// request would count as a failed token of this machine, and a tab left open would soon have
// every mistyped link from here answered 429.
'use strict';

(() => {
  const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');
  const panel = document.getElementById('panel');
  const updated = document.getElementById('updated');
  const REFRESH_MS = 3000;

  async function refresh() {
    try {
      const response = await fetch('/api/admin/panel', { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) {
        // 429 answers only a token that opens nothing (a valid one is never refused): dead too.
        if (response.status === 401 || response.status === 403 || response.status === 429) {
          clearInterval(timer);
          updated.textContent = 'this link no longer opens the audit (renewed?): open the new maintainer link; refreshing stopped';
          updated.classList.add('error');
          return;
        }
        updated.textContent = `refresh failed (${response.status})`;
        return;
      }
      panel.innerHTML = await response.text();
      updated.textContent = `live · updated ${new Date().toLocaleTimeString()}`;
    } catch {
      updated.textContent = 'refresh failed: the server cannot be reached';
    }
  }

  const timer = setInterval(refresh, REFRESH_MS);
})();
