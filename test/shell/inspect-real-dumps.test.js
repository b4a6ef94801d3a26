'use strict';
// restore inspect in the real mysqlsh on every dump of ../shared/real-dumps (formats 1.0.0 to
// 2.0.1, Shell 8.0.21 to 9.4): what it prints must agree with facts computed here from the files
// themselves (schema JSON, data files on disk, `zstd -t`), and PROVENANCE.md's notes.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, REAL_DUMPS } = require('../support/real');
const { mysqlsh } = require('../support/shell');
const { dumpFacts } = require('../support/dump-facts');

// What PROVENANCE.md says that the files alone cannot: absent files, and the verdict.
const EXPECTED = {
  'Akash242005__Recipe-app__database': { missing: 0, verdict: /util\.loadDump would load this dump/ },
  FedeCapo00__Database: { missing: 0, verdict: /util\.loadDump would load this dump/ },
  'danielestcamar-wq__Evidencia_Proyecto-Veterinaria-SENA': { missing: 0, verdict: /util\.loadDump would load this dump/ },
  fortunewalla__airportdb__db_ffdb__PARTIAL_ZEROED_DATA: { missing: 3,
    verdict: /util\.loadDump would fail or load fewer rows: 3 data file\(s\) missing, 11 data file\(s\) corrupt/ },
  fortunewalla__dvdstore__mysql_ds2: { missing: 0, verdict: /util\.loadDump would load this dump/ },
  molnarfi93__Szakdoga__dump: { missing: 0, verdict: /util\.loadDump would fail: the dump is unfinished/ },
  'mysql__mysql-shell__dump_instance_8.0.21': { missing: 0, verdict: /util\.loadDump would load this dump/ },
  'mysql__mysql-shell__test_dump1': { missing: 0, verdict: /util\.loadDump would fail: 8 table\(s\) with an unknown last chunk/ },
};

const SEP = '@@@INSPECT@@@';

describe('restore inspect of every real dump (real Shell)', function () {
  let sections = null;
  before(function () {
    needs(this, ['shell', 'dumps']);
    // One mysqlsh for all of them (each start costs a second): inspect each, a marker line between.
    const dumps = fs.readdirSync(REAL_DUMPS).filter((d) => fs.statSync(path.join(REAL_DUMPS, d)).isDirectory());
    const code = dumps.map((d) => `println(${JSON.stringify(SEP + d)}); restore.inspect(${JSON.stringify(path.join(REAL_DUMPS, d))});`).join('\n');
    const r = mysqlsh(['--js', '-e', code]);
    expect(r.status, r.out).to.equal(0);
    sections = {};
    r.stdout.split(SEP).slice(1).forEach((s) => { const nl = s.indexOf('\n'); sections[s.slice(0, nl)] = s.slice(nl + 1); });
  });

  it('has a known answer for every dump in real-dumps (a new dump needs one here)', function () {
    expect(Object.keys(sections).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const [name, want] of Object.entries(EXPECTED)) {
    it(`${name}: format, tables, data files and verdict as the files say`, function () {
      const out = sections[name];
      const f = dumpFacts(path.join(REAL_DUMPS, name));
      expect(out).to.match(new RegExp(`^Format:\\s+${f.format.replace(/\./g, '\\.')} `, 'm'));
      expect(out).to.match(new RegExp(`^Contents:\\s+${f.schemas} schema\\(s\\), ${f.tables} table\\(s\\), ${f.views} view\\(s\\)`, 'm'));
      const present = f.dataFiles - f.empty - f.corrupt;
      expect(out).to.match(new RegExp(`^Data files:\\s+${f.dataFiles + want.missing} \\(${present} present, ${f.empty} empty, 0 stub, ` +
        `${want.missing} missing, ${f.corrupt} corrupt\\)`, 'm'));
      expect(out).to.match(new RegExp(`^Complete:\\s+${f.done ? 'yes' : 'NO'}`, 'm'));
      // Chunks column: "usable/total" ("+?" when the last chunk is unknown) for each plainly named table.
      for (const [table, t] of Object.entries(f.perTable)) {
        if (!/^\w+\.\w+$/.test(table)) continue;
        const row = out.split('\n').find((l) => l.startsWith(table + ' '));
        if (!row && !t.chunks) continue; // a table without any data file is only counted
        expect(row, `${table} row in:\n${out}`).to.be.a('string');
        expect(row.split(/\s+/)[1].split('/')[1], `${table}: ${row}`).to.equal(t.chunks + (t.lastKnown ? '' : '+?'));
      }
      expect(out).to.match(new RegExp('^Verdict: ' + want.verdict.source, 'm'));
    });
  }
});
