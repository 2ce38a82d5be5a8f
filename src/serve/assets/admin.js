// The maintainer's page: the panel is fetched again every few seconds as markup the server
// rendered and escaped, so the figures and disputed items stay live without a second renderer.
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
        updated.textContent = `refresh failed (${response.status})`;
        return;
      }
      panel.innerHTML = await response.text();
      updated.textContent = `live · updated ${new Date().toLocaleTimeString()}`;
    } catch {
      updated.textContent = 'refresh failed: the server cannot be reached';
    }
  }

  setInterval(refresh, REFRESH_MS);
})();
