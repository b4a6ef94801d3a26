'use strict';
// A seeded workload on a real source (issue 53 item 5): a GTID source writing ROW binary logs, driven by
// 2-4 concurrent clients through the event shapes production writes; the real util.dumpSchemas dumps it
// mid-way while the clients keep writing; then more work, a mistake (DROP TABLE gen.victim) and work after
// it; the binary logs flushed and copied to a folder. Everything is drawn from the seed (same seed, same
// statements; the interleaving of the clients is the server's). Statements the server rejects (deadlocks,
// a name taken) are counted, not fatal: the reference and the plugin replay whatever the source committed.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const mysql = require('mysql2/promise');
const { MYSQLSH } = require('./real');
const { shellEnv, tempDir } = require('./shell');
const { DUMP_ENV, withShellDumper } = require('./shell-dumper');

const SCHEMAS = ['gen', 'gen_b'];
const VICTIM = 'gen.victim';

// mulberry32: small, deterministic, no dependency.
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: (xs) => xs[Math.floor(next() * xs.length)], chance: (p) => next() < p };
}

const str = (r, n) => {
  const abc = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
  let s = '';
  for (let i = 0; i < n; i++) s += abc[Math.floor(r.next() * abc.length)];
  return s;
};
const q = (s) => `'${String(s).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

// Each shape: (cx) → statements run on one client. cx = {c (client number), n (op number), r (prng), conn,
// run(sql), phase ('before' | 'during' | 'after' | 'late': before/while/after the dump, after the mistake), run state}.
const SHAPES = {
  // INSERT / UPDATE / DELETE of 1-200 rows, autocommit, on tables with and without a primary key.
  async dml(cx) {
    const { r } = cx;
    const n = r.pick([1, 1, 3, 20, 200]);
    const rows = Array.from({ length: n }, () => `(${r.int(0, 5000)}, ${q(str(r, r.int(1, 60)))})`).join(',');
    const t = cx.victimGone || r.chance(0.5) ? r.pick(['gen.t_small', 'gen.t_nopk']) : VICTIM;
    const cols = t === 'gen.t_nopk' ? '(a, b)' : '(k, v)';
    const k = t === 'gen.t_nopk' ? 'a' : 'k';
    const what = r.int(0, 5);
    if (what <= 2) await cx.run(`INSERT INTO ${t} ${cols} VALUES ${rows}`);
    else if (what <= 4) await cx.run(`UPDATE ${t} SET ${t === 'gen.t_nopk' ? 'b' : 'v'} = ${q(str(r, 8))} WHERE ${k} BETWEEN ${r.int(0, 5000)} AND ${r.int(0, 5000)}`);
    else await cx.run(`DELETE FROM ${t} WHERE ${k} BETWEEN ${r.int(0, 5000)} AND ${r.int(0, 5000)} LIMIT ${r.int(1, 50)}`);
  },
  // One transaction over tables of both schemas.
  async multi(cx) {
    const { r } = cx;
    await cx.run('BEGIN');
    await cx.run(`INSERT INTO gen.t_small (k, v) VALUES (${r.int(0, 5000)}, 'multi')`);
    await cx.run(`INSERT INTO gen_b.t_other (v) VALUES (${q(str(r, 10))})`);
    await cx.run(`UPDATE gen_b.t_other SET v = 'm${cx.c}' WHERE id % 7 = ${r.int(0, 6)} LIMIT 5`);
    await cx.run(`DELETE FROM gen.t_small WHERE k = ${r.int(0, 5000)}`);
    await cx.run(r.chance(0.15) ? 'ROLLBACK' : 'COMMIT');
  },
  async blob_json(cx) {
    const { r } = cx;
    const b = str(r, r.pick([10, 2000, 70000]));
    const doc = JSON.stringify({ a: r.int(0, 99), s: str(r, r.int(0, 300)), l: [1, 2, r.int(0, 9)] });
    await cx.run(`INSERT INTO gen.t_wide (b, t, j, n) VALUES (${q(b)}, ${q(str(r, 100))}, ${q(doc)}, ${r.int(0, 9999)}.25)`);
    await cx.run(`UPDATE gen.t_wide SET j = JSON_SET(j, '$.u', ${r.int(0, 99)}), t = CONCAT(t, 'u') WHERE id % 5 = ${r.int(0, 4)} LIMIT 3`);
  },
  // Partial JSON updates (binlog_row_value_options PARTIAL_JSON logs the diff only with a MINIMAL/NOBLOB image).
  async partial_json(cx) {
    const { r } = cx;
    await cx.run(`SET SESSION binlog_row_value_options = 'PARTIAL_JSON', SESSION binlog_row_image = ${q(r.pick(['MINIMAL', 'NOBLOB']))}`);
    try {
      const id = r.int(1, 40);
      await cx.run(r.pick([
        `UPDATE gen.t_json SET doc = JSON_SET(doc, '$.n', ${r.int(0, 999)}) WHERE id = ${id}`,
        `UPDATE gen.t_json SET doc = JSON_REPLACE(doc, '$.s', ${q(str(r, 5))}) WHERE id <= ${id}`,
        `UPDATE gen.t_json SET doc = JSON_REMOVE(doc, '$.x') WHERE id = ${id}`,
        `UPDATE gen.t_json SET doc = JSON_SET(doc, '$.x', JSON_ARRAY(${r.int(0, 9)}, 'y')) WHERE id % 3 = ${r.int(0, 2)}`,
      ]));
    } finally {
      await cx.run("SET SESSION binlog_row_value_options = '', SESSION binlog_row_image = 'FULL'");
    }
  },
  async spatial(cx) {
    const { r } = cx;
    await cx.run(`INSERT INTO gen.t_geo (g, p) VALUES (ST_GeomFromText('POINT(${r.int(0, 90)} ${r.int(0, 90)})'), ` +
      `ST_GeomFromText('POLYGON((0 0, ${r.int(1, 9)} 0, ${r.int(1, 9)} ${r.int(1, 9)}, 0 0))'))`);
    await cx.run(`UPDATE gen.t_geo SET g = ST_GeomFromText('POINT(${r.int(0, 90)} 1)') WHERE id % 4 = ${r.int(0, 3)} LIMIT 2`);
  },
  async generated(cx) {
    const { r } = cx;
    await cx.run(`INSERT INTO gen.t_genc (a, b) VALUES (${r.int(0, 99)}, ${r.int(0, 99)}), (${r.int(0, 99)}, ${r.int(0, 99)})`);
    await cx.run(`UPDATE gen.t_genc SET a = a + 1 WHERE v % 5 = ${r.int(0, 4)} LIMIT 4`);
    if (r.chance(0.3)) await cx.run(`DELETE FROM gen.t_genc WHERE s = ${r.int(0, 198)}`);
  },
  // binlog_row_image MINIMAL / NOBLOB for a few statements, then FULL again.
  async row_image(cx) {
    const { r } = cx;
    await cx.run(`SET SESSION binlog_row_image = ${q(r.pick(['MINIMAL', 'NOBLOB']))}`);
    try {
      await cx.run(`UPDATE gen.t_wide SET n = n + 1, b = IF(id % 2, b, ${q(str(r, 50))}) WHERE id % 6 = ${r.int(0, 5)} LIMIT 4`);
      await cx.run(`UPDATE gen.t_nopk SET b = ${q(str(r, 6))} WHERE a BETWEEN ${r.int(0, 5000)} AND ${r.int(0, 5000)} LIMIT 3`);
      await cx.run(`DELETE FROM gen.t_small WHERE k BETWEEN ${r.int(0, 5000)} AND ${r.int(0, 5000)} LIMIT 3`);
      await cx.run(`INSERT INTO gen.t_wide (b, t, n) VALUES (${q(str(r, 300))}, 'img', 1)`);
    } finally {
      await cx.run("SET SESSION binlog_row_image = 'FULL'");
    }
  },
  // The usual fix of an errant GTID (and what a filtered replica logs for each skipped transaction).
  async empty_trx(cx) {
    const gtid = `${cx.run.state.errantUuid}:${++cx.run.state.errantN}`;
    await cx.run(`SET gtid_next = '${gtid}'`);
    try {
      await cx.run('BEGIN');
      await cx.run('COMMIT');
    } finally {
      await cx.run("SET gtid_next = 'AUTOMATIC'");
    }
  },
  async ctas(cx) {
    const { r } = cx;
    const t = `gen.ctas_${cx.c}_${cx.n}`;
    // A group takes rows only into a table with a primary key.
    const pk = cx.run.state.groupSafe ? ['PRIMARY KEY (id)'] : [];
    const defs = (r.chance(0.5) ? ['extra INT DEFAULT 7'] : []).concat(pk);
    await cx.run(`CREATE TABLE ${t} ${defs.length ? `(${defs.join(', ')}) ` : ''}SELECT id, k, v FROM gen.t_small WHERE k < ${r.int(0, 5000)} LIMIT 300`);
    if (r.chance(0.3)) await cx.run(`DROP TABLE ${t}`);
  },
  // Tables of the client's own: CREATE, ALTER, then TRUNCATE, RENAME (in the schema or to the other) or DROP.
  async ddl(cx) {
    const { r } = cx;
    const t = `gen.d_${cx.c}_${cx.n}`;
    // MyISAM only outside the dump: its rows are not in the dump's snapshot (written meanwhile, they would be
    // in the dump and replayed again: the reference fails on them too).
    const engine = r.pick(['InnoDB', 'InnoDB', 'MyISAM']);
    await cx.run(`CREATE TABLE ${t} (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=${cx.phase === 'during' || cx.run.state.groupSafe ? 'InnoDB' : engine}`);
    await cx.run(`INSERT INTO ${t} VALUES (1, 'a'), (2, 'b'), (${r.int(3, 99)}, 'c')`);
    await cx.run(`ALTER TABLE ${t} ADD COLUMN w INT DEFAULT ${r.int(0, 9)}`);
    const after = r.int(0, 3);
    if (after === 0) await cx.run(`TRUNCATE TABLE ${t}`);
    else if (after === 1) await cx.run(`RENAME TABLE ${t} TO ${t}_r`);
    else if (after === 2) await cx.run(`DROP TABLE ${t}`);
    else await cx.run(`ALTER TABLE ${t} RENAME TO gen_b.d_${cx.c}_${cx.n}`);
  },
  // CREATE INDEX / DROP INDEX (statements of their own, not ALTER TABLE).
  async index(cx) {
    const i = `i_${cx.c}_${cx.n}`;
    const t = cx.r.pick([['gen.t_small', 'v'], ['gen_b.t_other', 'v'], ['gen.t_wide', 'n']]);
    await cx.run(`CREATE INDEX ${i} ON ${t[0]} (${t[1]})`);
    if (cx.r.chance(0.7)) await cx.run(`DROP INDEX ${i} ON ${t[0]}`);
  },
  // ANALYZE / OPTIMIZE / REPAIR TABLE (logged as statements; OPTIMIZE of InnoDB rebuilds the table).
  async maintenance(cx) {
    await cx.run(`${cx.r.pick(['ANALYZE', 'OPTIMIZE', 'REPAIR', 'ANALYZE'])} TABLE ${cx.r.pick(['gen.t_small', 'gen.t_myisam', 'gen_b.t_other', 'gen.t_genc'])}`);
  },
  // Views, triggers, procedures (CALLed), events (disabled: they must not fire on a target).
  async objects(cx) {
    const { r } = cx;
    const s = `${cx.c}_${cx.n}`;
    await cx.run(`CREATE TABLE gen.o_${s} (id INT AUTO_INCREMENT PRIMARY KEY, v INT)`);
    await cx.run(`CREATE TRIGGER gen.tr_${s} AFTER INSERT ON gen.o_${s} FOR EACH ROW INSERT INTO gen_b.t_other (v) VALUES (CONCAT('trg', NEW.v))`);
    await cx.run(`CREATE VIEW gen.v_${s} AS SELECT id, v * 2 AS w FROM gen.o_${s}`);
    await cx.run(`CREATE PROCEDURE gen.p_${s}(x INT) BEGIN INSERT INTO gen.o_${s} (v) VALUES (x), (x + 1); END`);
    await cx.run(`CALL gen.p_${s}(${r.int(0, 99)})`);
    await cx.run(`CREATE EVENT gen.e_${s} ON SCHEDULE EVERY 1 DAY STARTS '2099-01-01 00:00:00' DISABLE DO DELETE FROM gen.o_${s}`);
    if (r.chance(0.5)) await cx.run(`DROP TRIGGER gen.tr_${s}`);
    if (r.chance(0.3)) await cx.run(`DROP VIEW gen.v_${s}`);
    if (r.chance(0.3)) await cx.run(`DROP PROCEDURE gen.p_${s}`);
    if (r.chance(0.3)) await cx.run(`DROP EVENT gen.e_${s}`);
    if (r.chance(0.3)) await cx.run(`ALTER VIEW gen.v_${s} AS SELECT id FROM gen.o_${s}`);
  },
  // Accounts: only after the dump (dumpSchemas does not dump accounts: one made before it would be missing).
  async accounts(cx) {
    if (cx.phase === 'before' || cx.phase === 'during') return 'skip';
    const { r, run } = cx;
    const u = `'gen_u${cx.c}_${cx.n}'@'%'`;
    run.state.accounts.push(u);
    await cx.run(`CREATE USER ${u} IDENTIFIED BY ${q('pw' + str(r, 6))}`);
    await cx.run(`GRANT SELECT, INSERT ON gen.* TO ${u}`);
    await cx.run(`GRANT UPDATE (v) ON gen.t_small TO ${u}`);
    await cx.run(`ALTER USER ${u} WITH MAX_QUERIES_PER_HOUR ${r.int(1, 99)}`);
    if (r.chance(0.5)) await cx.run(`REVOKE INSERT ON gen.* FROM ${u}`);
    if (r.chance(0.3)) await cx.run('FLUSH PRIVILEGES');
    const mine = run.state.accounts.filter((a) => a.startsWith(`'gen_u${cx.c}_`) && a !== u);
    if (mine.length && r.chance(0.3)) await cx.run(`DROP USER ${mine[mine.length - 1]}`);
  },
  // XA: prepared then committed, prepared then rolled back, one phase.
  async xa(cx) {
    const { r } = cx;
    const x = `'gx${cx.c}_${cx.n}'`;
    const end = r.pick(['commit', 'rollback', 'one']);
    await cx.run(`XA START ${x}`);
    try {
      await cx.run(`INSERT INTO gen.t_small (k, v) VALUES (${r.int(0, 5000)}, 'xa-${end}')`);
      await cx.run(`UPDATE gen_b.t_other SET v = 'xa' WHERE id = ${r.int(1, 50)}`);
      await cx.run(`XA END ${x}`);
      if (end === 'one') return await cx.run(`XA COMMIT ${x} ONE PHASE`);
      await cx.run(`XA PREPARE ${x}`);
    } catch (e) {
      await cx.conn.query(`XA END ${x}`).catch(() => {});
      await cx.conn.query(`XA ROLLBACK ${x}`).catch(() => {});
      throw e;
    }
    await cx.run(end === 'commit' ? `XA COMMIT ${x}` : `XA ROLLBACK ${x}`);
  },
  // LOAD DATA from a file of the server's (INFILE) and of the client's (LOCAL, mysql2's infileStreamFactory).
  async load_data(cx) {
    const { r } = cx;
    const f = path.join(cx.run.state.dir, `load_${cx.c}_${cx.n}.tsv`);
    fs.writeFileSync(f, Array.from({ length: r.int(1, 400) }, () => `${r.int(0, 5000)}\t${str(r, r.int(0, 30))}\n`).join(''));
    await cx.run(`LOAD DATA ${r.chance(0.5) ? 'LOCAL ' : ''}INFILE ${q(f)} INTO TABLE gen.t_small (k, v)`);
  },
  // A transaction rolled back after changing a MyISAM table (the change stays, and is logged).
  async myisam_rollback(cx) {
    if (cx.phase === 'during') return 'skip'; // not while the dump runs (ddl says why)
    const { r } = cx;
    await cx.run('BEGIN');
    await cx.run(`INSERT INTO gen.t_myisam (v) VALUES (${q(str(r, 9))})`);
    await cx.run('ROLLBACK');
    await cx.run(`UPDATE gen.t_myisam SET v = 'up' WHERE id % 3 = ${r.int(0, 2)}`);
  },
  async compression(cx) {
    const { r } = cx;
    await cx.run('SET SESSION binlog_transaction_compression = ON');
    try {
      await cx.run(`INSERT INTO gen.t_small (k, v) VALUES ${Array.from({ length: r.int(1, 80) }, () => `(${r.int(0, 5000)}, 'zz')`).join(',')}`);
      await cx.run('BEGIN');
      await cx.run(`UPDATE gen.t_wide SET t = REPEAT('c', ${r.int(1, 500)}) WHERE id % 4 = ${r.int(0, 3)} LIMIT 5`);
      await cx.run(`INSERT INTO gen_b.t_other (v) VALUES ('compressed')`);
      await cx.run('COMMIT');
    } finally {
      await cx.run('SET SESSION binlog_transaction_compression = OFF');
    }
  },
  // A transaction with a tagged GTID (MySQL 8.3+).
  async tagged(cx) {
    await cx.run("SET gtid_next = 'AUTOMATIC:gen_tag'");
    try {
      await cx.run(`INSERT INTO gen.t_small (k, v) VALUES (${cx.r.int(0, 5000)}, 'tagged')`);
    } finally {
      await cx.run("SET gtid_next = 'AUTOMATIC'");
    }
  },
  // One statement of more than 4 MB of row events (and one UPDATE of them, before and after images).
  async big(cx) {
    if (cx.phase === 'before' || cx.phase === 'during' || cx.run.state.bigDone >= 2) return 'skip'; // after the dump: replayed
    cx.run.state.bigDone++;
    await cx.run('SET SESSION cte_max_recursion_depth = 100000');
    await cx.run(`INSERT INTO gen.t_wide (b, t, n) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 5000) ` +
      `SELECT REPEAT(CHAR(65 + i % 26), 1000), 'big', i FROM s`);
    await cx.run(`UPDATE gen.t_wide SET n = n + 1 WHERE t = 'big'`);
  },
};
// Probes: one kind of statement each, after what it needs (a table of its own, an account), so that a
// refusal or a difference names the kind (SOAK_SHAPES=probes, SOAK_EACH_SHAPE=1). $t: a fresh table
// gen.p_<client>_<op>, $n: <client>_<op>, $u: a fresh account.
const PROBES = {
  create_table: ['CREATE TABLE $t (id INT PRIMARY KEY, v INT)', 'INSERT INTO $t VALUES (1, 1)'],
  alter_table: ['CREATE TABLE $t (id INT PRIMARY KEY, v INT)', 'ALTER TABLE $t ADD COLUMN w INT DEFAULT 3'],
  rename_table: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'RENAME TABLE $t TO $t_r'],
  alter_rename: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'ALTER TABLE $t RENAME TO gen_b.p_$n'],
  truncate_table: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'INSERT INTO $t VALUES (1)', 'TRUNCATE TABLE $t'],
  drop_table: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'DROP TABLE $t'],
  create_index: ['CREATE TABLE $t (id INT PRIMARY KEY, v INT)', 'CREATE INDEX iv ON $t (v)'],
  drop_index: ['CREATE TABLE $t (id INT PRIMARY KEY, v INT, KEY iv (v))', 'DROP INDEX iv ON $t'],
  analyze_table: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'ANALYZE TABLE $t'],
  optimize_table: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'OPTIMIZE TABLE $t'],
  repair_table: ['CREATE TABLE $t (id INT PRIMARY KEY) ENGINE=MyISAM', 'REPAIR TABLE $t'],
  create_view: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'CREATE VIEW gen.pv_$n AS SELECT id FROM $t'],
  drop_view: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'CREATE VIEW gen.pv_$n AS SELECT id FROM $t', 'DROP VIEW gen.pv_$n'],
  create_trigger: ['CREATE TABLE $t (id INT PRIMARY KEY, v INT)', 'CREATE TRIGGER gen.ptr_$n BEFORE INSERT ON $t FOR EACH ROW SET NEW.v = 1',
    'INSERT INTO $t (id) VALUES (1)'],
  drop_trigger: ['CREATE TABLE $t (id INT PRIMARY KEY, v INT)', 'CREATE TRIGGER gen.ptr_$n BEFORE INSERT ON $t FOR EACH ROW SET NEW.v = 1',
    'DROP TRIGGER gen.ptr_$n'],
  create_procedure: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'CREATE PROCEDURE gen.pp_$n() INSERT INTO $t VALUES (1)', 'CALL gen.pp_$n()'],
  drop_procedure: ['CREATE PROCEDURE gen.pp_$n() SELECT 1', 'DROP PROCEDURE gen.pp_$n'],
  create_function: ['CREATE FUNCTION gen.pf_$n(x INT) RETURNS INT DETERMINISTIC RETURN x + 1'],
  create_event: ["CREATE EVENT gen.pe_$n ON SCHEDULE EVERY 1 DAY STARTS '2099-01-01 00:00:00' DISABLE DO SELECT 1"],
  drop_event: ["CREATE EVENT gen.pe_$n ON SCHEDULE EVERY 1 DAY STARTS '2099-01-01 00:00:00' DISABLE DO SELECT 1", 'DROP EVENT gen.pe_$n'],
  create_user: ["CREATE USER $u IDENTIFIED BY 'pw'"],
  flush_privileges: ['FLUSH PRIVILEGES'],
  // SAVEPOINT and ROLLBACK TO are logged as Query events inside the transaction.
  savepoint: ['CREATE TABLE $t (id INT PRIMARY KEY)', 'BEGIN', 'INSERT INTO $t VALUES (1)', 'SAVEPOINT s1', 'INSERT INTO $t VALUES (2)',
    'ROLLBACK TO SAVEPOINT s1', 'INSERT INTO $t VALUES (3)', 'COMMIT'],
  // A session logging statements, not rows (binlog_format is session-settable): issue 53 asks for a decision.
  statement_format: ['CREATE TABLE $t (id INT PRIMARY KEY, v INT)', "SET SESSION binlog_format = 'STATEMENT'", 'INSERT INTO $t VALUES (1, 1), (2, 2)',
    'UPDATE $t SET v = v + 1', "SET SESSION binlog_format = 'ROW'"],
  xa_commit: ["XA START 'px_$n'", 'INSERT INTO gen.t_small (k, v) VALUES (1, \'xa\')', "XA END 'px_$n'", "XA PREPARE 'px_$n'", "XA COMMIT 'px_$n'"],
  xa_rollback: ["XA START 'px_$n'", 'INSERT INTO gen.t_small (k, v) VALUES (1, \'xa\')', "XA END 'px_$n'", "XA PREPARE 'px_$n'", "XA ROLLBACK 'px_$n'"],
  xa_one_phase: ["XA START 'px_$n'", 'INSERT INTO gen.t_small (k, v) VALUES (1, \'xa\')', "XA END 'px_$n'", "XA COMMIT 'px_$n' ONE PHASE"],
};
for (const [name, stmts] of Object.entries(PROBES)) {
  SHAPES[name] = async (cx) => {
    if (name === 'create_user' && (cx.phase === 'before' || cx.phase === 'during')) return 'skip';
    const n = `${cx.c}_${cx.n}`;
    const u = `'gen_u${n}'@'%'`;
    if (name === 'create_user') cx.run.state.accounts.push(u);
    for (const s of stmts) {
      const sql = s.replace(/\$t/g, `gen.p_${n}`).replace(/\$n/g, n).replace(/\$u/g, u);
      await cx.run(cx.run.state.groupSafe ? sql.replace(/ENGINE=MyISAM/, 'ENGINE=InnoDB') : sql); // groupSafe: setup's
    }
  };
}
const ALL = Object.keys(SHAPES);
// On unless asked: every shape but the large one (a larger seed's) and the probes.
const DEFAULT = ALL.filter((s) => s !== 'big' && !PROBES[s]);

// Shapes from a list ("dml,xa", "all" (but the probes), "default", "probes", "-big"), names checked.
function parseShapes(spec) {
  if (!spec || spec === 'default') return DEFAULT.slice();
  let out = [];
  for (const part of String(spec).split(',').map((s) => s.trim()).filter(Boolean)) {
    if (part === 'all') out = ALL.filter((s) => !PROBES[s]);
    else if (part === 'probes') out = [...new Set(out.concat(Object.keys(PROBES)))];
    else if (part === 'default') out = [...new Set(out.concat(DEFAULT))];
    else if (part.startsWith('-')) out = (out.length ? out : DEFAULT.slice()).filter((s) => s !== part.slice(1));
    else if (SHAPES[part]) out.push(part);
    else throw new Error(`unknown shape "${part}": one of ${ALL.join(', ')}`);
  }
  return [...new Set(out)];
}

// groupSafe: what a Group Replication target can hold (every table InnoDB with a primary key): gen.t_nopk gets
// one (a last column), gen.t_myisam is InnoDB.
async function setup(conn, { groupSafe = false } = {}) {
  const sql = [
    'CREATE DATABASE gen', 'CREATE DATABASE gen_b',
    'CREATE TABLE gen.t_small (id INT AUTO_INCREMENT PRIMARY KEY, k INT, v VARCHAR(64), KEY (k))',
    `CREATE TABLE gen.t_nopk (a INT, b VARCHAR(64)${groupSafe ? ', id INT AUTO_INCREMENT PRIMARY KEY' : ''})`,
    'CREATE TABLE gen.victim (id INT AUTO_INCREMENT PRIMARY KEY, k INT, v VARCHAR(64))',
    'CREATE TABLE gen.t_wide (id INT AUTO_INCREMENT PRIMARY KEY, b LONGBLOB, t TEXT, j JSON, n DECIMAL(12,2))',
    'CREATE TABLE gen.t_json (id INT PRIMARY KEY, doc JSON)',
    'CREATE TABLE gen.t_geo (id INT AUTO_INCREMENT PRIMARY KEY, g POINT NOT NULL SRID 0, p GEOMETRY, SPATIAL INDEX (g))',
    'CREATE TABLE gen.t_genc (id INT AUTO_INCREMENT PRIMARY KEY, a INT, b INT, s INT AS (a + b) STORED, v INT AS (a * b) VIRTUAL, KEY (v))',
    `CREATE TABLE gen.t_myisam (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20)) ENGINE=${groupSafe ? 'InnoDB' : 'MyISAM'}`,
    'CREATE TABLE gen_b.t_other (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(64))',
    `INSERT INTO gen.t_small (k, v) VALUES ${Array.from({ length: 200 }, (_, i) => `(${i * 25}, 'r${i}')`).join(',')}`,
    `INSERT INTO gen.t_nopk (a, b) VALUES ${Array.from({ length: 100 }, (_, i) => `(${i * 50}, 'n${i}')`).join(',')}`,
    `INSERT INTO gen.victim (k, v) VALUES ${Array.from({ length: 100 }, (_, i) => `(${i * 50}, 'v${i}')`).join(',')}`,
    `INSERT INTO gen.t_wide (b, t, j, n) VALUES ${Array.from({ length: 30 }, (_, i) => `(REPEAT('b', ${i * 40}), 't${i}', '{"a": ${i}}', ${i})`).join(',')}`,
    `INSERT INTO gen.t_json VALUES ${Array.from({ length: 40 }, (_, i) => `(${i + 1}, '{"n": ${i}, "s": "x${i}", "x": [1, 2]}')`).join(',')}`,
    `INSERT INTO gen.t_geo (g, p) VALUES ${Array.from({ length: 20 }, (_, i) => `(ST_GeomFromText('POINT(${i} ${i})'), NULL)`).join(',')}`,
    `INSERT INTO gen.t_genc (a, b) VALUES ${Array.from({ length: 20 }, (_, i) => `(${i}, ${i * 2})`).join(',')}`,
    `INSERT INTO gen.t_myisam (v) VALUES ${Array.from({ length: 20 }, (_, i) => `('m${i}')`).join(',')}`,
    `INSERT INTO gen_b.t_other (v) VALUES ${Array.from({ length: 50 }, (_, i) => `('o${i}')`).join(',')}`,
  ];
  for (const s of sql) await conn.query(s);
}

const RETRY = new Set([1213, 1205]); // deadlock, lock wait: the transaction is gone, nothing of it logged

// Runs `ops` operations on each client, shapes drawn from the client's prng; until() (if given) keeps going
// while it returns true (the dump running), at most 20 times ops.
async function drive(run, conns, phase, ops, until) {
  await Promise.all(conns.map(async (conn, c) => {
    const r = run.rngs[c];
    for (let i = 0; i < ops || (until && until() && i < ops * 20); i++) {
      // Right after the dump every shape once, spread over the clients (the replay must meet each); then drawn.
      const k = i * conns.length + c;
      const shape = phase === 'after' && !run.state.everyOnce && k < run.shapes.length ? run.shapes[k] : r.pick(run.shapes);
      const cx = { c, n: run.state.opN[c]++, r, conn, phase, victimGone: run.state.victimGone, shape };
      cx.run = async (sql) => { run.state.sql.push(sql.length > 200 ? sql.slice(0, 200) + '…' : sql); return conn.query(sql); };
      cx.run.state = run.state;
      try {
        const out = await SHAPES[shape](cx);
        if (out !== 'skip') run.made[shape] = (run.made[shape] || 0) + 1;
      } catch (e) {
        run.failed[shape] = (run.failed[shape] || 0) + 1;
        if (!RETRY.has(e.errno)) run.errors.push(`${shape}: ${e.code || e.errno}: ${String(e.message).split('\n')[0]}`);
        await conn.query('ROLLBACK').catch(() => {});
        await conn.query("SET gtid_next = 'AUTOMATIC'").catch(() => {});
        await conn.query("SET SESSION binlog_row_value_options = '', binlog_row_image = 'FULL', binlog_transaction_compression = OFF, " +
          "binlog_format = 'ROW'").catch(() => {});
      }
    }
  }));
}

// Starts mysqlsh (not blocking this process: the clients keep writing) → Promise {status, out}.
function shellAsync(uri, code, { configHome, env } = {}) {
  return new Promise((resolve) => {
    const p = spawn(MYSQLSH, [uri, '--js', '-e', code], { env: shellEnv({ configHome, env }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { out += d; });
    p.on('close', (status) => resolve({ status, out }));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The source back to nothing of a previous seed: schemas, generated accounts, binary logs and GTIDs.
async function resetSource(source) {
  await source.query('DROP DATABASE IF EXISTS gen; DROP DATABASE IF EXISTS gen_b');
  for (const u of await source.query("SELECT user, host FROM mysql.user WHERE user LIKE 'gen\\_u%'")) {
    await source.query(`DROP USER ${q(u.user)}@${q(u.host)}`);
  }
  await source.query('RESET BINARY LOGS AND GTIDS');
}

// One seeded run on `source` (a test/support/server.js Server with GTIDs) → the run's facts:
// {seed, shapes (asked), made {shape: count}, failed, errors, dump, folder, files, uuid, dumpGtids, stops,
//  accounts, log (every statement, also in <dir>/statements.sql, for a repro), dir}. opts: clients (2-4, from the seed if not given),
// ops (per client and phase), shapes (a list or parseShapes' text), configHome, groupSafe (setup's: a workload a
// Group Replication target can hold; myisam_rollback then rolls back an InnoDB change, logged as nothing).
async function generate(source, seed, opts = {}) {
  const r = prng(seed);
  const shapes = Array.isArray(opts.shapes) ? opts.shapes : parseShapes(opts.shapes);
  const clients = opts.clients || r.int(2, 4);
  const ops = opts.ops || 6;
  const dir = tempDir('pitr-gen-');
  const run = {
    seed, shapes, clients, made: {}, failed: {}, errors: [], groupSafe: Boolean(opts.groupSafe),
    rngs: Array.from({ length: clients }, (_, c) => prng(seed * 31 + c + 1)),
    state: { dir, opN: Array(clients).fill(0), accounts: [], errantUuid: errantUuid(seed), errantN: 0, bigDone: 0, victimGone: false, sql: [],
      groupSafe: Boolean(opts.groupSafe) },
  };
  await resetSource(source);
  await setup(source.conn, { groupSafe: opts.groupSafe });
  const conns = await Promise.all(Array.from({ length: clients }, () => mysql.createConnection({
    host: '127.0.0.1', port: source.port, user: 'root', password: '', multipleStatements: true,
    infileStreamFactory: (p) => fs.createReadStream(p),
  })));
  // A DDL waiting for the dump's backup lock while holding a lock the dump waits for (DROP TRIGGER does)
  // would wait for a year: the statement gives up instead, counted as rejected.
  for (const c of conns) await c.query('SET SESSION lock_wait_timeout = 5');
  try {
    await drive(run, conns, 'before', ops);
    // A time before the dump began (the clients idle): a stop there is before the dump's own point.
    run.beforeDump = String(await source.value("SELECT DATE_FORMAT(NOW(6) - INTERVAL 1 SECOND, '%Y-%m-%d %H:%i:%s.%f')"));
    // The dump, the clients writing while it runs. Its backup lock can lose a deadlock to a client's DDL
    // (OPTIMIZE TABLE): dumped again then, into a new folder.
    let d;
    for (let attempt = 1; attempt <= 3; attempt++) {
      run.dump = path.join(dir, `dump${attempt > 1 ? attempt : ''}`);
      let dumping = true;
      const dumped = withShellDumper(source, async () => {
        const x = await shellAsync(source.uri, `util.dumpSchemas(${JSON.stringify(SCHEMAS)}, ${JSON.stringify(run.dump)}, {showProgress: false, threads: 2})`,
          { configHome: opts.configHome, env: DUMP_ENV });
        dumping = false;
        return x;
      });
      await sleep(300); // the dump's snapshot under way
      await drive(run, conns, 'during', 1, () => dumping);
      d = await dumped;
      if (d.status === 0 || !/Deadlock found|Lock wait timeout/.test(d.out)) break;
    }
    if (d.status !== 0) throw new Error(`util.dumpSchemas failed (exit ${d.status}): ${d.out.slice(-2000)}`);
    const at = JSON.parse(fs.readFileSync(path.join(run.dump, '@.json'), 'utf8'));
    run.dumpGtids = String((at.source && at.source.binlog && at.source.binlog.gtidExecuted) || at.gtidExecuted).replace(/\s/g, '');
    await drive(run, conns, 'after', Math.max(ops, Math.ceil(run.shapes.length / clients)));
    run.state.everyOnce = true;
    // A quiet second: `until` is a whole second no event of the run is in (mysqlbinlog --stop-datetime reads seconds).
    const now = Date.parse(String(await source.value("SELECT DATE_FORMAT(NOW(6), '%Y-%m-%dT%H:%i:%s.%fZ')")));
    const untilMs = Math.floor(now / 1000) * 1000 + 1000;
    const until = new Date(untilMs).toISOString().replace('T', ' ').slice(0, 19);
    for (;;) {
      const t = Date.parse(String(await source.value("SELECT DATE_FORMAT(NOW(6), '%Y-%m-%dT%H:%i:%s.%fZ')")));
      if (t >= untilMs + 150) break;
      await sleep(Math.max(10, untilMs + 160 - t));
    }
    await drive(run, conns, 'after', Math.max(1, Math.floor(ops / 2)));
    await source.query(`DROP TABLE ${VICTIM}`); // the mistake
    run.state.victimGone = true;
    await drive(run, conns, 'late', Math.max(1, Math.floor(ops / 2)));
    await source.query('FLUSH BINARY LOGS');
    run.uuid = String(await source.value('SELECT @@server_uuid'));
    run.folder = path.join(dir, 'binlogs');
    fs.mkdirSync(run.folder);
    const logs = (await source.query('SHOW BINARY LOGS')).map((l) => l.Log_name);
    for (const f of logs.concat(['binlog.index'])) fs.copyFileSync(path.join(source.datadir, f), path.join(run.folder, f));
    run.files = logs;
    run.stops = await findStops(source, run, logs, until, r);
  } finally {
    await Promise.all(conns.map((c) => c.end().catch(() => {})));
  }
  run.accounts = run.state.accounts;
  run.log = run.state.sql;
  run.dir = dir;
  fs.writeFileSync(path.join(dir, 'statements.sql'), run.log.join(';\n') + ';\n');
  delete run.rngs;
  delete run.state;
  return run;
}

function errantUuid(seed) {
  const h = (seed >>> 0).toString(16).padStart(8, '0');
  return `${h}-eeee-4eee-8eee-${h}0000`;
}

// The stops, each with the point where the reference's mysqlbinlog ends: until (a time), gtid (a source GTID
// after the dump, drawn from the seed), drop ("first drop of gen.victim": before its GTID event).
async function findStops(source, run, logs, until, r) {
  const dumpSet = run.dumpGtids;
  const inDump = (gtid) => gtidInSet(gtid, dumpSet);
  const candidates = [];
  let drop = null;
  for (const file of logs) {
    const events = await source.query(`SHOW BINLOG EVENTS IN ${q(file)}`);
    events.forEach((e, i) => {
      if (/^Gtid/.test(e.Event_type)) {
        const m = /GTID_NEXT\s*=\s*'([^']+)'/.exec(e.Info);
        if (m && m[1].split(':').length === 2 && m[1].startsWith(run.uuid) && !inDump(m[1])) {
          candidates.push({ gtid: m[1], file, position: Number(e.Pos) });
        }
      }
      if (!drop && e.Event_type === 'Query' && /^DROP TABLE `gen`\.`victim`/.test(e.Info)) {
        const g = events[i - 1];
        drop = { file, position: Number(g.Pos), gtid: (/GTID_NEXT\s*=\s*'([^']+)'/.exec(g.Info) || [])[1] };
      }
    });
  }
  if (!drop) throw new Error('the DROP TABLE gen.victim is not in the binary logs');
  // A GTID of the concurrent work after the dump, before the mistake.
  const before = candidates.filter((c) => c.gtid !== drop.gtid && Number(c.gtid.split(':')[1]) < Number(drop.gtid.split(':')[1]));
  const gtid = before.length ? before[Math.floor(r.next() * before.length)] : drop;
  // A source GTID the dump holds (the setup's first ones are): a stop before the dump's own point.
  const held = `${run.uuid}:${r.int(1, 5)}`;
  return {
    until: { option: { until }, mysqlbinlog: { stopDatetime: until }, text: `until ${until}` },
    gtid: { option: { stopBefore: gtid.gtid }, mysqlbinlog: { file: gtid.file, stopPosition: gtid.position }, text: `stopBefore ${gtid.gtid}` },
    drop: { option: { stopBefore: `first drop of ${VICTIM}` }, mysqlbinlog: { file: drop.file, stopPosition: drop.position },
      text: `stopBefore "first drop of ${VICTIM}" (${drop.gtid})` },
    // Before the dump's point: only a refusal (nothing changed) is right (issue 53 item 2); no reference.
    early: { option: { until: run.beforeDump }, refuse: true, text: `until ${run.beforeDump} (before the dump began)` },
    early_gtid: { option: { stopBefore: held }, refuse: true, text: `stopBefore ${held} (in the dump's gtidExecuted)` },
  };
}

// Is uuid:n in a GTID set's text (untagged intervals of that uuid)?
function gtidInSet(gtid, set) {
  const [uuid, n] = gtid.split(':');
  for (const part of set.split(',')) {
    const bits = part.split(':');
    if (bits[0].toLowerCase() !== uuid.toLowerCase()) continue;
    for (let i = 1; i < bits.length && /^\d/.test(bits[i]); i++) {
      const [lo, hi] = bits[i].split('-').map(Number);
      if (Number(n) >= lo && Number(n) <= (hi || lo)) return true;
    }
  }
  return false;
}

module.exports = { generate, parseShapes, prng, SHAPES: ALL, DEFAULT_SHAPES: DEFAULT, SCHEMAS, VICTIM, resetSource, gtidInSet };
