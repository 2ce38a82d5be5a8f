import Sqlite from 'better-sqlite3';

/** The data tables of a store as sorted rows (run records aside), to compare two stores exactly. */
export function snapshotStore(path: string): Record<string, unknown[]> {
  const db = new Sqlite(path, { readonly: true });
  try {
    const tables = ['pages', 'page_moves', 'revisions', 'infoboxes', 'window_pages', 'infobox_changes', 'data_units'];
    return Object.fromEntries(
      tables.map((table) => {
        const rows = db.prepare(`SELECT * FROM ${table}`).all() as Array<Record<string, unknown>>;
        return [table, rows.map((row) => JSON.stringify(row)).sort()];
      }),
    );
  } finally {
    db.close();
  }
}
