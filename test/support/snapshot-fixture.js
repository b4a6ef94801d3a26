'use strict';
// Shared by the snapshot tests (test/shell/snapshot*.test.js): source schemas seeded in the suite's
// server and dumped by the real util.dumpSchemas (128k chunks: several per table), the schemas a
// test loads into (dropped afterwards), and an independent orphan count.
const path = require('path');
const { expect } = require('chai');
const { needs } = require('./real');
const { runJs, tempDir } = require('./shell');
const { suiteServer } = require('./root-hooks');
const { DUMP_ENV, withShellDumper } = require('./shell-dumper');

function q(name) { return '`' + name.replace(/`/g, '``') + '`'; }

// Independent orphan count of one key [child, columns, parent, referenced columns] in schema (MATCH
// SIMPLE: a row with a NULL key column is no orphan).
function orphanSql(schema, [child, cols, parent, refs], parentSchema = schema) {
  return `SELECT COUNT(*) FROM ${q(schema)}.${q(child)} c LEFT JOIN ${q(parentSchema)}.${q(parent)} p ON ` +
    cols.map((c, i) => `p.${q(refs[i])} = c.${q(c)}`).join(' AND ') + ` WHERE p.${q(refs[0])} IS NULL AND ` +
    cols.map((c) => `c.${q(c)} IS NOT NULL`).join(' AND ');
}

// Inside a describe: before, seeds each {schema, seed} and dumps it; after, drops them and every
// schema target() named. → {server, dumps: {schema: dir}, target(name) → name, count(sql) → number}.
// variants: {name: more util.dumpSchemas options} dumps the schema once per name instead, into
// dumps[name] (a directory of that name).
function snapshotFixture(sources) {
  const fx = { server: null, dumps: {}, made: sources.map((s) => s.schema) };
  fx.target = (name) => { fx.made.push(name); return name; };
  fx.count = async (sql) => Number(await fx.server.value(sql));
  before(async function () {
    needs(this, ['shell', 'server']);
    fx.server = suiteServer();
    for (const { schema, seed, variants } of sources) {
      await fx.server.query(`DROP SCHEMA IF EXISTS ${q(schema)}`);
      await fx.server.query(seed);
      for (const [name, more] of Object.entries(variants || { dump: {} })) {
        const dir = path.join(tempDir('snapshot-src-'), name);
        const o = JSON.stringify({ bytesPerChunk: '128k', threads: 2, showProgress: false, ...more });
        const r = await withShellDumper(fx.server, () => runJs(fx.server.uri, `util.dumpSchemas([${JSON.stringify(schema)}], ` +
          `${JSON.stringify(dir)}, ${o}); 'done'`, { env: DUMP_ENV }));
        expect(r.error, r.out).to.equal(null);
        fx.dumps[variants ? name : schema] = dir;
      }
    }
  });
  after(async function () {
    if (fx.server) for (const s of fx.made) await fx.server.query(`DROP SCHEMA IF EXISTS ${q(s)}`);
  });
  return fx;
}

module.exports = { q, orphanSql, snapshotFixture };
