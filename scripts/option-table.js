'use strict';
// Writes the option table of docs/options.md from lib/options/option-table.js, between its two
// marker lines. `node scripts/option-table.js --check` exits 1 when the page's table is not the one
// the declarations make (test/unit/option-table.test.js runs the same check).
const fs = require('fs');
const path = require('path');
const table = require('../lib/options/option-table.js');

const PAGE = path.join(__dirname, '..', 'docs', 'options.md');
const BEGIN = '<!-- option table: made by scripts/option-table.js from lib/options/option-table.js -->';
const END = '<!-- end of option table -->';

function cell(text) { return String(text).replace(/\|/g, '\\|'); }

function markdown() {
  const rows = ['| option | command line | default | MySQL Shell | commands | what it does |', '|---|---|---|---|---|---|'];
  table.SECTIONS.forEach((s) => {
    if (s.id === 'loadDump') return;
    rows.push(`| **${s.title}** | | | | | |`);
    table.OPTIONS.filter((o) => o.section === s.id).forEach((o) => {
      const def = table.defaultText(o);
      const since = table.sinceOf(o.name);
      rows.push(`| \`${o.name}\` | \`${cell(table.cliForm(o))}\` | ${cell(def)} | ${since ? since + '+' : 'all'} | ` +
        `${o.members.join(', ')} | ${cell(o.brief)} |`);
    });
  });
  const pass = table.passThroughNames();
  rows.push(`| **${table.SECTIONS[table.SECTIONS.length - 1].title}** | | | (each its own) | load | passed through unchanged ` +
    `(refused before anything changes when the running Shell does not know one): ${pass.map((n) => '`' + n + '` (' +
      table.sinceOf(n) + '+)').join(', ')} |`);
  return rows.join('\n');
}

// The page with its table replaced by the one the declarations make.
function madePage(text) {
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/options.md lacks the marker lines ${BEGIN} … ${END}`);
  return text.slice(0, a + BEGIN.length) + '\n' + markdown() + '\n' + text.slice(b);
}

if (require.main === module) {
  const text = fs.readFileSync(PAGE, 'utf8');
  const made = madePage(text);
  if (process.argv.includes('--check')) {
    if (made !== text) {
      console.error('docs/options.md\'s option table differs from lib/options/option-table.js: run node scripts/option-table.js');
      process.exit(1);
    }
  } else if (made !== text) {
    fs.writeFileSync(PAGE, made);
    console.log('docs/options.md: option table written');
  }
}

module.exports = { madePage, markdown };
