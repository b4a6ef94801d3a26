'use strict';
// Drop-before-re-import and the analyze pass on the 8.0.21 instance fixture's crazy_names_db,
// whose tables, views, routines and events are named with quotes, backticks and newlines:
// exactly the objects the load creates are dropped (nothing outside the selection), the
// re-import recreates them, and ANALYZE reaches every table.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const fx = require('./server-fixture');

const DUMP = 'mysql__mysql-shell__dump_instance_8.0.21';
const SCHEMA = 'crazy_names_db';
const TABLES = ['\'"', '`', 'account', 'foo`bar(', 'new\nline', 'table1', 'table2'];
const VIEWS = ['\'"v', '`v', 'foo`barv(', 'new\nlinev'];
const ROUTINES = ['\'"', 'foo`bar(', 'new\nline', '`'];
const EXCLUDED = 'foo`bar(';

describe('drop before re-import and analyze with quotes, backticks and newlines in names', function () {
  let dump;
  let shell;

  function load(extra = '', opts = {}) {
    return shell(`restore.load(${JSON.stringify(dump)}, {includeSchemas: ['${SCHEMA}'], ignoreVersion: true${extra}})`, opts);
  }

  async function serverObjects() {
    const tables = await fx.sql('SELECT TABLE_NAME AS n, TABLE_TYPE AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [SCHEMA]);
    const routines = await fx.sql('SELECT ROUTINE_NAME AS n, ROUTINE_TYPE AS t FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ?', [SCHEMA]);
    const events = await fx.sql('SELECT EVENT_NAME AS n FROM information_schema.EVENTS WHERE EVENT_SCHEMA = ?', [SCHEMA]);
    return {
      tables: tables.filter((r) => r.t === 'BASE TABLE').map((r) => r.n).sort(),
      views: tables.filter((r) => r.t === 'VIEW').map((r) => r.n).sort(),
      functions: routines.filter((r) => r.t === 'FUNCTION').map((r) => r.n).sort(),
      procedures: routines.filter((r) => r.t === 'PROCEDURE').map((r) => r.n).sort(),
      events: events.map((r) => r.n).sort(),
    };
  }

  const ALL = { tables: TABLES.slice().sort(), views: VIEWS.slice().sort(), functions: ROUTINES.slice().sort(),
    procedures: ROUTINES.slice().sort(), events: ROUTINES.slice().sort() };

  before(async () => {
    dump = fx.copyRealDump(DUMP);
    shell = fx.shellIn(fx.pluginConfigHome());
    await fx.sql(`DROP DATABASE IF EXISTS ${SCHEMA}`);
    const first = load(", progressFile: ''");
    expect(first.error, first.error && first.error.message).to.equal(null);
    expect(await serverObjects()).to.deep.equal(ALL);
  });
  after(() => fx.sql(`DROP DATABASE IF EXISTS ${SCHEMA}`));

  it('dry run: lists exactly the existing objects the load would create, excluded table left out', async () => {
    const r = load(`, dropExisting: true, dryRun: true, excludeTables: [${JSON.stringify(`${SCHEMA}.\`foo\`\`bar(\``)}]`);
    expect(r.error).to.equal(null);
    const byKind = {};
    r.value.toDrop.forEach((o) => { (byKind[o.kind] = byKind[o.kind] || []).push(o.name); });
    expect(byKind.TABLE.sort()).to.deep.equal(TABLES.filter((t) => t !== EXCLUDED).sort());
    expect(byKind.VIEW.sort()).to.deep.equal(ALL.views);
    expect(byKind.FUNCTION.sort()).to.deep.equal(ALL.functions);
    expect(byKind.PROCEDURE.sort()).to.deep.equal(ALL.procedures);
    expect(byKind.EVENT.sort()).to.deep.equal(ALL.events);
    expect(r.value.toDrop.every((o) => o.schema === SCHEMA)).to.equal(true);
    expect(r.stdout).to.include('table crazy_names_db.`new\\nline`');
    expect(r.stdout).to.include('function crazy_names_db.`foo``bar(`');
  });

  it('interactive: asks before dropping; "n" cancels and nothing is dropped', async () => {
    await fx.sql('INSERT INTO ??.?? VALUES (?)', [SCHEMA, 'new\nline', 4242]);
    const r = load(', dropExisting: true', { interactive: true, promptAnswers: ['n'] });
    expect(r.stdout).to.include('Drop the 23 existing object(s) listed above? [y/N]: ');
    expect(r.error.message).to.include('Load cancelled: nothing was dropped');
    expect(await fx.sql('SELECT COUNT(*) AS n FROM ??.?? WHERE ?? = 4242', [SCHEMA, 'new\nline', 'a\ncolumn'])).to.deep.equal([{ n: 1 }]);
    expect(await serverObjects()).to.deep.equal(ALL);
  });

  it('re-import with dropExisting drops and recreates exactly the chosen objects, then analyzes them', async () => {
    await fx.sql('INSERT INTO ??.?? VALUES (?)', [SCHEMA, EXCLUDED, 777]);
    const r = load(`, dropExisting: true, analyze: 'on', excludeTables: [${JSON.stringify(`${SCHEMA}.\`foo\`\`bar(\``)}]`,
      { interactive: true, promptAnswers: ['y'] });
    expect(r.error, r.error && r.error.message).to.equal(null);
    expect(r.value.dropped).to.have.length(22);
    expect(r.value.dropped.filter((o) => o.kind === 'TABLE').map((o) => o.name)).to.not.include(EXCLUDED);
    // Recreated: every object is back, the row added to `new\nline` is gone (its data came from the dump again).
    expect(await serverObjects()).to.deep.equal(ALL);
    expect(await fx.sql('SELECT COUNT(*) AS n FROM ??.?? WHERE ?? = 4242', [SCHEMA, 'new\nline', 'a\ncolumn'])).to.deep.equal([{ n: 0 }]);
    // Outside the selection: not dropped, its extra row still there.
    expect(await fx.sql('SELECT COUNT(*) AS n FROM ??.?? WHERE ?? = 777', [SCHEMA, EXCLUDED, 'col`umn'])).to.deep.equal([{ n: 1 }]);
    expect(r.value.analyze).to.deep.equal({ mode: 'on', tables: 6, histograms: 0, problems: [] });
    expect(r.value.tables.map((t) => t.table).sort()).to.deep.equal(TABLES.filter((t) => t !== EXCLUDED).sort());
    expect(r.stdout).to.match(/crazy_names_db\.`new\\nline` +\d+/);
  });

  it('restore.analyze with the dump analyzes every table, whatever its name', async () => {
    await fx.sql("UPDATE mysql.innodb_table_stats SET last_update = '2001-01-01 00:00:00' WHERE database_name = ?", [SCHEMA]);
    const r = shell(`restore.analyze({dumpDir: ${JSON.stringify(dump)}, includeSchemas: ['${SCHEMA}']})`);
    expect(r.error, r.error && r.error.message).to.equal(null);
    expect(r.value).to.deep.equal({ tables: 7, histograms: 0, statements: 1, problems: [] });
    const stats = await fx.sql('SELECT table_name AS t, last_update AS u FROM mysql.innodb_table_stats WHERE database_name = ?', [SCHEMA]);
    expect(stats.map((s) => s.t).sort()).to.deep.equal(ALL.tables);
    stats.forEach((s) => expect(new Date(s.u).getFullYear(), s.t).to.be.greaterThan(2001));
  });
});

describe('analyze: "histogram" rebuilds the histograms the dump lists', function () {
  const SCHEMA2 = 'safety_histograms';
  after(() => fx.sql(`DROP DATABASE IF EXISTS ${SCHEMA2}`));

  it('on MariaDB as ANALYZE … PERSISTENT FOR COLUMNS: the listed columns get statistics', async () => {
    const dump = fx.copyVetDump();
    const tj = path.join(dump, 'veterinariadb@medicamentos.json');
    const meta = JSON.parse(fs.readFileSync(tj, 'utf8'));
    meta.histograms = [{ column: 'stock', buckets: 16 }, { column: 'precio', buckets: 32 }];
    fs.writeFileSync(tj, JSON.stringify(meta));
    await fx.sql(`DROP DATABASE IF EXISTS ${SCHEMA2}`);
    const shell = fx.shellIn(fx.pluginConfigHome());
    const r = shell(`restore.load(${JSON.stringify(dump)}, {schema: '${SCHEMA2}', analyze: 'histogram', progressFile: ''})`);
    expect(r.error, r.error && r.error.message).to.equal(null);
    expect(r.value.analyze).to.deep.equal({ mode: 'histogram', tables: 6, histograms: 1, problems: [] });
    const cols = await fx.sql('SELECT column_name AS c FROM mysql.column_stats WHERE db_name = ? AND table_name = ?',
      [SCHEMA2, 'medicamentos']);
    expect(cols.map((x) => x.c).sort()).to.deep.equal(['precio', 'stock']);
  });
});
