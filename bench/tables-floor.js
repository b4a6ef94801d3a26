'use strict';
// The floor of npm run bench:tables (issue 56): what this server can do with the dump's DDL and rows
// without util.loadDump. The redo log is off and the binary log too (as fastest has them); N plain
// sessions (mysql2, kept open) send each table's own DDL file from the dump, as it is (its CREATE TABLE
// with the indexes inline, as util.loadDump runs it for small tables), then each chunk by LOAD DATA
// LOCAL INFILE from memory (decompressed before the timing: the floor pays no zstd). → {ddl, data,
// seconds}: the DDL phase (from the first CREATE to the last), the data phase, and both with the redo
// log switches.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Readable } = require('stream');
const { spawnSync } = require('child_process');
const mysql = require('mysql2/promise');
const { floorPlan } = require('./load-floor');

function readJson(f) { return JSON.parse(fs.readFileSync(f, 'utf8')); }

// Each table's DDL file and its chunks' rows, read (and decompressed, by one zstd call) before the timing.
function tablesPlan(dump) {
  const plan = floorPlan(dump);
  const top = readJson(path.join(dump, '@.json'));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-tables-floor-'));
  try {
    const files = plan.tables.flatMap((t) => t.chunks.map((c) => c.file));
    for (let i = 0; i < files.length; i += 2000) {
      const r = spawnSync('zstd', ['-qdf', '--output-dir-flat', out, ...files.slice(i, i + 2000)], { stdio: ['ignore', 'ignore', 'pipe'] });
      if (r.status !== 0) throw new Error('zstd failed: ' + r.stderr);
    }
    const ddl = (schema, table) => {
      const sbase = (top.basenames && top.basenames[schema]) || schema;
      const sjson = readJson(path.join(dump, `${sbase}.json`));
      const tbase = (sjson.basenames && sjson.basenames[table]) || `${sbase}@${table}`;
      return fs.readFileSync(path.join(dump, `${tbase}.sql`), 'utf8');
    };
    return {
      schemas: plan.schemas,
      tables: plan.tables.map((t) => ({ ddl: `USE \`${t.schema.replace(/`/g, '``')}\`;\n` + ddl(t.schema, t.table), load: t.load,
        rows: t.chunks.map((c) => fs.readFileSync(path.join(out, path.basename(c.file).replace(/\.zst$/, '')))) })),
    };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

// Runs jobs (async functions of a connection) on n connections, each taking the next job when done.
async function onSessions(conns, jobs) {
  let next = 0;
  await Promise.all(conns.map(async (c) => {
    while (next < jobs.length) await jobs[next++](c);
  }));
}

async function floorTables(server, plan, sessions) {
  const opts = { host: '127.0.0.1', port: Number(server.port), user: 'root', password: '', multipleStatements: true };
  const conns = [];
  try {
    for (let i = 0; i < sessions; i++) {
      const c = await mysql.createConnection(opts);
      await c.query("SET SESSION sql_log_bin = 0, unique_checks = 0, foreign_key_checks = 0, time_zone = '+00:00'");
      conns.push(c);
    }
    await conns[0].query('SET GLOBAL local_infile = 1');
    const t0 = process.hrtime.bigint();
    const at = () => Number(process.hrtime.bigint() - t0) / 1e9;
    await conns[0].query('ALTER INSTANCE DISABLE INNODB REDO_LOG');
    await conns[0].query(plan.schemas.join(';\n'));
    const d0 = at();
    await onSessions(conns, plan.tables.map((t) => (c) => c.query(t.ddl)));
    const d1 = at();
    const loads = plan.tables.flatMap((t) => t.rows.map((buf) => (c) => c.query({ sql: t.load, infileStreamFactory: () => Readable.from([buf]) })));
    await onSessions(conns, loads);
    const d2 = at();
    await conns[0].query('ALTER INSTANCE ENABLE INNODB REDO_LOG');
    return { ddl: d1 - d0, data: d2 - d1, seconds: at() };
  } finally {
    for (const c of conns) await c.end().catch(() => {});
  }
}

module.exports = { tablesPlan, floorTables };
