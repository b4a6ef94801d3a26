'use strict';
// Masks applied while loading (lib/snapshot/load-masks.js) end to end: a dump made by the real
// util.dumpSchemas (several chunks per table, a VARBINARY column the dump writes in base64), loaded
// by the real Shell with masks and a maskKey, and every masked value checked in the real server
// against the mask's formula computed independently from the source rows: the chosen chunks, the
// parent rows orphans "parents" adds from other chunks later, and a full load without latest.
const path = require('path');
const fs = require('fs');
const { expect } = require('chai');
const { cli, installPlugin } = require('../support/shell');
const { snapshotFixture } = require('../support/snapshot-fixture');

const SRC = 'lm_src';
const KEY = 'team-secret';
const MASKS = [`${SRC}.customers.email:email`, `${SRC}.customers.secret:hash`, `${SRC}.customers.name:name`,
  `${SRC}.orders.note:text`, `${SRC}.customers.code:hash`].join(',');

const SEED = `
CREATE SCHEMA ${SRC};
CREATE TABLE ${SRC}.customers (id INT PRIMARY KEY, code VARCHAR(12) NOT NULL UNIQUE, name VARCHAR(40) NOT NULL,
  email VARCHAR(60) NOT NULL UNIQUE, secret VARBINARY(40) NULL, pad VARCHAR(150) NOT NULL);
CREATE TABLE ${SRC}.orders (id INT PRIMARY KEY, customer_id INT NOT NULL, customer_code VARCHAR(12) NOT NULL,
  note TEXT NULL, pad VARCHAR(150) NOT NULL, FOREIGN KEY (customer_id) REFERENCES customers (id),
  FOREIGN KEY (customer_code) REFERENCES customers (code));
SET SESSION cte_max_recursion_depth = 100000;
SET SESSION foreign_key_checks = 0;
INSERT INTO ${SRC}.customers WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  SELECT i, CONCAT('C', LPAD(i, 6, '0')), CONCAT('Näme ', i % 40), CONCAT('person', i, '@corp.test'),
    IF(i % 7 = 0, NULL, UNHEX(SHA2(CONCAT('s', i % 100), 256))), REPEAT('c', 140) FROM n;
INSERT INTO ${SRC}.orders WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
  SELECT i, 1 + (i * 7919) % 3000, CONCAT('C', LPAD(1 + (i * 7919) % 3000, 6, '0')),
    IF(i % 4 = 0, NULL, CONCAT('déliver to door ', i % 40, REPEAT(' please', i % 9))), REPEAT('o', 140) FROM n;
SET SESSION foreign_key_checks = 1;
ANALYZE TABLE ${SRC}.customers, ${SRC}.orders;
`;

// The keyed hash of lib/snapshot/masking.js, written here from its documented definition.
const H = (v) => `SHA2(CONCAT(CAST('${KEY}' AS BINARY), 0x00, CAST(${v} AS BINARY)), 256)`;

describe('restore load: masks applied while loading (real Shell, real MySQL)', function () {
  this.timeout(300000);
  const fx = snapshotFixture([{ schema: SRC, seed: SEED }]);
  const { target, count } = fx;
  let server;
  let dump;
  before(function () {
    server = fx.server;
    dump = fx.dumps[SRC];
    const tj = JSON.parse(fs.readFileSync(path.join(dump, `${SRC}@customers.json`), 'utf8'));
    expect(tj.options.decodeColumns, 'the dump decodes the binary column itself').to.deep.equal({ secret: 'FROM_BASE64' });
  });

  // Every masked column of schema m equals the mask's formula over the source row; nothing else changed.
  async function checkMasked(m) {
    const c = `${m}.customers x JOIN ${SRC}.customers s ON s.id = x.id`;
    const rows = await count(`SELECT COUNT(*) FROM ${m}.customers`);
    expect(rows).to.be.above(0);
    expect(await count(`SELECT COUNT(*) FROM ${c} WHERE x.email = CONCAT('user_', LEFT(${H('s.email')}, 16), '@example.com')`),
      'email').to.equal(rows);
    expect(await count(`SELECT COUNT(*) FROM ${c} WHERE x.secret <=> LEFT(${H('s.secret')}, 40)`), 'secret (base64 in the dump)')
      .to.equal(rows);
    expect(await count(`SELECT COUNT(*) FROM ${c} WHERE x.secret IS NULL`)).to.be.above(0);
    expect(await count(`SELECT COUNT(*) FROM ${c} WHERE x.code = LEFT(${H('s.code')}, 12) AND x.pad = s.pad`), 'code, pad')
      .to.equal(rows);
    // name: a first and a last name, the same for equal originals, never the original.
    expect(await count(`SELECT COUNT(*) FROM ${c} WHERE x.name = s.name OR x.name NOT REGEXP '^[A-Z][a-z]+ [A-Z][a-z]+$'`))
      .to.equal(0);
    expect(await count(`SELECT COUNT(*) FROM (SELECT s.name FROM ${c} GROUP BY s.name HAVING COUNT(DISTINCT x.name) > 1) g`))
      .to.equal(0);
    const o = `${m}.orders x JOIN ${SRC}.orders s ON s.id = x.id`;
    const orders = await count(`SELECT COUNT(*) FROM ${m}.orders`);
    expect(await count(`SELECT COUNT(*) FROM ${o} WHERE x.note <=> LEFT(CONCAT('Lorem ', LEFT(${H('s.note')}, 8), ` +
      "' ipsum dolor sit amet ', REPEAT('consectetur adipiscing elit sed do eiusmod tempor ', 1 + CHAR_LENGTH(s.note) DIV 40)), " +
      'CHAR_LENGTH(s.note))'), 'note').to.equal(orders);
    // The masked key code still joins: orders.customer_code followed it.
    expect(await count(`SELECT COUNT(*) FROM ${m}.orders x JOIN ${m}.customers p ON p.id = x.customer_id ` +
      'WHERE p.code = x.customer_code')).to.equal(orders);
  }

  it('a partial load with orphans "parents": the chosen rows and the parents added later are masked by the formula', async function () {
    const m = target('lm_par');
    const home = installPlugin();
    const r = cli(server.uri, ['load', dump, `--latest=${SRC}.customers:1,${SRC}.orders:2`, '--orphans=parents',
      `--mask=${MASKS}`, `--mask-key=${KEY}`, `--schema=${m}`], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(/Masks while loading \(LOAD DATA writes the masked value, key: maskKey\): lm_src\.customers\.email email, /);
    expect(r.stdout).to.match(/Masks after the load \(UPDATE, key: maskKey\): lm_src\.customers\.code hash \(a foreign key or relation links it\)/);
    expect(r.stdout).to.match(/Masked while loading \(key: maskKey\): lm_par\.customers email email, secret hash, name name; lm_par\.orders note text/);
    expect(r.stdout).to.match(/Parents added: [1-9]\d* row\(s\)/);
    // The key never shows in the output, nor in the Shell's log (which holds the loader's sessionInitSql).
    const hex = Buffer.from(KEY).toString('hex');
    const log = fs.readFileSync(path.join(home, 'mysqlsh.log'), 'utf8');
    expect(log).to.include('performance_schema.user_variables_by_thread');
    for (const text of [r.out, log]) for (const k of [KEY, hex, hex.toUpperCase()]) expect(text).to.not.include(k);
    // Parents came from chunks other than the chosen one, and are masked like the rest.
    await checkMasked(m);
    expect(await count(`SELECT COUNT(*) FROM ${m}.orders x LEFT JOIN ${m}.customers p ON p.id = x.customer_id WHERE p.id IS NULL`))
      .to.equal(0);
  });

  it('a full load (no latest) masks while loading through a load view of its own, removed afterwards', async function () {
    const m = target('lm_full');
    const r = cli(server.uri, ['load', dump, `--mask=${MASKS}`, `--mask-key=${KEY}`, `--schema=${m}`]);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(/Load view: .* \(to be made: links to the dump's \d+ metadata and chosen data files, 0 empty stub\(s\), 2 rewritten file\(s\)/);
    expect(r.stdout).to.match(/Load view removed: /);
    expect(await count(`SELECT COUNT(*) FROM ${m}.customers`)).to.equal(3000);
    expect(await count(`SELECT COUNT(*) FROM ${m}.orders`)).to.equal(6000);
    await checkMasked(m);
  });
});
