'use strict';
// FIDELITY of the stand-in's util.dump*: for each real format-2.0.1 dump in ../shared/real-dumps,
// dump the seeded schema as the same Shell version with the same options and compare, key by
// key, the JSON files (same keys, same order, same value types), the file-name kinds, the
// SQL file header and the bytes of an empty chunk and its .idx.
//
// Written differently from the Shell, on purpose:
// * `options.decodeColumns` of a table JSON exists only for tables with binary columns (data,
//   not format): compared only where both sides have it.
// * Keys the stand-in never writes: `issues` in @.done.json (9.1+, only when a view references a
//   missing object), `hasVectorStoreTables` / `vectorStore` / `redirectedDumpDir` in @.json and
//   `isVectorStoreTable` in table JSON (9.5+, HeatWave vector store only), `histograms` in table
//   JSON (MySQL histograms; MariaDB has none to dump), and @.checksums.json (`checksum: true` is
//   refused as not emulated). None of them appears in the real dumps compared here.
// * Values the source server decides: MariaDB has no GTIDs (`gtidExecuted` "") and the test
//   server no binary log (`binlogFile` "", `binlogPosition` 0); `source.sysvars` holds MariaDB's
//   variables (compared as a map); `functionDependencies` / `procedureDependencies` are always {}.
// Behaviour that differs (files stay in the Shell's format):
// * One session does everything in order; `threads` is accepted and printed. `consistent` takes
//   FLUSH TABLES WITH READ LOCK + a consistent snapshot; there is no LOCK INSTANCE FOR BACKUP.
// * Chunk sizes come from a 1000-row sample of the encoded rows, not the server's estimates.
// * `ocimds` and `compatibility` are checked and recorded; the DDL is not rewritten or vetted.
// * Accounts (dumpInstance) come from MariaDB's SHOW CREATE USER / SHOW GRANTS, so @.users.sql
//   holds MariaDB syntax; roles, mariadb.sys and accounts the server will not show (a NOTE says
//   which) are left out. DDL is MariaDB's SHOW CREATE output (trigger and view names unqualified).
// * Not emulated, refused with a "stand-in:" error: remote storage, `checksum: true`, dialects
//   other than the default, character sets without a Node encoding.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { DumpHarness, readJson } = require('../support/dump-harness');
const { shapeDiff } = require('../support/dump-json-shape');
const { realDump } = require('../support/paths');

const FIXTURES = [
  'Akash242005__Recipe-app__database',
  'danielestcamar-wq__Evidencia_Proyecto-Veterinaria-SENA',
  'FedeCapo00__Database',
  'fortunewalla__airportdb__db_ffdb__PARTIAL_ZEROED_DATA',
];

const MAPS = {
  root: ['basenames', 'source.sysvars'],
  done: ['tableDataBytes', 'tableDataBytes.*', 'tableRows', 'tableRows.*', 'chunkFileBytes'],
  schema: ['basenames', 'functionDependencies', 'procedureDependencies'],
  table: ['basenames', 'options.decodeColumns'],
};

// Kind of every file in a dump directory, from the names its own metadata gives.
function fileKinds(dir) {
  const root = readJson(dir, '@.json');
  const kinds = new Map(['@.json', '@.done.json', '@.sql', '@.post.sql', '@.users.sql'].map((f) => [f, f]));
  const dataKinds = (base, what) => {
    const m = new Map();
    for (const f of fs.readdirSync(dir)) {
      if (!f.startsWith(`${base}.`) && !f.startsWith(`${base}@`)) continue;
      const rest = f.slice(base.length);
      const d = /^(?:@(@?)\d+)?\.tsv\.zst(\.idx)?$/.exec(rest);
      if (d) m.set(f, `${what} data ${rest.startsWith('.') ? 'un-chunked' : d[1] ? '@@N' : '@N'}${d[2] ? ' .idx' : ''}`);
    }
    return m;
  };
  for (const schema of root.schemas) {
    const sb = root.basenames[schema];
    kinds.set(`${sb}.json`, 'schema .json');
    kinds.set(`${sb}.sql`, 'schema .sql');
    const s = readJson(dir, `${sb}.json`);
    for (const t of s.tables) {
      const tb = s.basenames[t];
      for (const ext of ['.json', '.sql', '.triggers.sql']) kinds.set(`${tb}${ext}`, `table ${ext}`);
      const tj = readJson(dir, `${tb}.json`);
      for (const p of tj.partitions || []) dataKinds(tj.basenames[p], 'partition').forEach((v, k) => kinds.set(k, v));
      dataKinds(tb, 'table').forEach((v, k) => kinds.set(k, v));
    }
    for (const v of s.views || []) {
      kinds.set(`${s.basenames[v]}.pre.sql`, 'view .pre.sql');
      kinds.set(`${s.basenames[v]}.sql`, 'view .sql');
    }
  }
  return fs.readdirSync(dir).map((f) => kinds.get(f) || `unknown file ${f}`);
}

describe('stand-in util.dump* against real 2.0.1 dumps (fidelity)', function () {
  this.timeout(300000);
  let h;
  const schema = `dump_fmt_${process.pid}`;

  before(() => { h = DumpHarness.seeded(schema); });
  after(() => h.cleanup());

  for (const fixture of FIXTURES) {
    describe(fixture, () => {
      const real = realDump(fixture);
      const realRoot = readJson(real, '@.json');
      const version = /Ver (\d+\.\d+\.\d+)/.exec(realRoot.dumper)[1];
      let dir;
      let root;

      before(() => {
        dir = h.outputDir();
        const options = realRoot.options || (realRoot.bytesPerChunk === 64000000 ? undefined : { bytesPerChunk: '200M' });
        h.dumpers(version).dumpSchemas([schema], dir, options);
        root = readJson(dir, '@.json');
      });

      it(`@.json has the keys, order and value types of the real one (mysqlsh ${version})`, () => {
        expect(shapeDiff(realRoot, root, { maps: MAPS.root })).to.deep.equal([]);
        for (const key of ['version', 'origin', 'defaultCharacterSet', 'tzUtc', 'bytesPerChunk', 'consistent', 'compatibilityOptions']) {
          expect(root[key], key).to.deep.equal(realRoot[key]);
        }
        expect(root.dumper).to.equal(`mysqlsh Ver ${version} for Linux on x86_64 - for MySQL ${version} (MySQL Community Server (GPL))`);
        if (realRoot.options) expect(root.options).to.deep.equal(realRoot.options);
      });

      it('@.done.json has the keys, order and value types of the real one', () => {
        expect(shapeDiff(readJson(real, '@.done.json'), readJson(dir, '@.done.json'), { maps: MAPS.done })).to.deep.equal([]);
      });

      it('the schema JSON has the keys, order and value types of the real one', () => {
        const realSchema = readJson(real, `${realRoot.basenames[realRoot.schemas[0]]}.json`);
        expect(shapeDiff(realSchema, readJson(dir, `${root.basenames[schema]}.json`), { maps: MAPS.schema })).to.deep.equal([]);
      });

      it('every table JSON has the keys, order and value types of the real ones', () => {
        const realSchema = readJson(real, `${realRoot.basenames[realRoot.schemas[0]]}.json`);
        const realTables = realSchema.tables.map((t) => readJson(real, `${realSchema.basenames[t]}.json`));
        const mySchema = readJson(dir, `${root.basenames[schema]}.json`);
        for (const t of mySchema.tables) {
          const mine = readJson(dir, `${mySchema.basenames[t]}.json`);
          const peer = realTables.find((r) => !!r.options.decodeColumns === !!mine.options.decodeColumns);
          const ignore = peer ? [] : ['options.decodeColumns'];
          expect(shapeDiff(peer || realTables[0], mine, { maps: MAPS.table, ignore }), t).to.deep.equal([]);
          expect(mine.extension).to.equal(realTables[0].extension);
          expect(mine.compression).to.equal(realTables[0].compression);
        }
      });

      it('writes the same kinds of files (names from the metadata), and no others', () => {
        const mine = new Set(fileKinds(dir));
        expect([...mine].filter((k) => k.startsWith('unknown'))).to.deep.equal([]);
        for (const kind of new Set(fileKinds(real))) expect(mine.has(kind), kind).to.equal(true);
      });

      it('keyless tables follow the version: un-chunked before 8.0.32, split with an empty @@N after', () => {
        const mySchema = readJson(dir, `${root.basenames[schema]}.json`);
        const base = mySchema.basenames.audit_log;
        const meta = readJson(dir, `${base}.json`);
        const realKeyless = readJson(real, `${realRoot.basenames[realRoot.schemas[0]]}.json`).tables
          .map((t) => readJson(real, `${readJson(real, `${realRoot.basenames[realRoot.schemas[0]]}.json`).basenames[t]}.json`))
          .find((t) => t.primaryIndex.length === 0);
        if (realKeyless) expect(meta.chunking).to.equal(realKeyless.chunking);
        const split = version !== '8.0.30';
        expect(meta.chunking).to.equal(split);
        expect(fs.existsSync(path.join(dir, `${base}.tsv.zst`))).to.equal(!split);
        expect(fs.existsSync(path.join(dir, `${base}@@1.tsv.zst`))).to.equal(split);
      });

      it('SQL files start with the Shell header; an empty chunk and its .idx have the real bytes', () => {
        const header = (file) => fs.readFileSync(file, 'utf8').split('\n').slice(0, 5)
          .map((l) => l.replace(/Ver \S+ for \S+ on \S+ - for MySQL \S+/, 'VER').replace(/for \S+ \(x86_64\)$/, 'for OS (x86_64)')
            .replace(/Host: \S+/, 'Host: H').replace(/version\t\S+/, 'version\tV'));
        expect(header(path.join(dir, '@.sql'))).to.deep.equal(header(path.join(real, '@.sql')));
        // (the airportdb fixture's data files are zero bytes in its source repository: skipped)
        const realEmpty = fs.readdirSync(real).find((f) => f.endsWith('.zst') && fs.statSync(path.join(real, f)).size === 9
          && fs.readFileSync(path.join(real, f))[0] === 0x28);
        const myEmpty = path.join(dir, `${readJson(dir, `${root.basenames[schema]}.json`).basenames.empty_table}@@0.tsv.zst`);
        if (realEmpty) {
          expect(fs.readFileSync(myEmpty)).to.deep.equal(fs.readFileSync(path.join(real, realEmpty)));
          expect(fs.readFileSync(`${myEmpty}.idx`)).to.deep.equal(fs.readFileSync(path.join(real, `${realEmpty}.idx`)));
        }
        expect(fs.readFileSync(myEmpty).toString('hex')).to.equal('28b52ffd2000010000');
      });
    });
  }
});
