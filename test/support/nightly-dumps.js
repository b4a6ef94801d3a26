'use strict';
// A folder of nightly dumps, as a backup host keeps them: copies of a dump, each with the time
// its @.json records, and any of them unfinished (no @.done.json, as while MySQL Shell writes it).
const fs = require('fs');
const path = require('path');

// nights: [[name, begin ('YYYY-MM-DD hh:mm:ss'), complete]] → folder
function nightlyDumps(folder, src, nights) {
  for (const [name, begin, complete] of nights) {
    const d = path.join(folder, name);
    fs.cpSync(src, d, { recursive: true });
    const root = JSON.parse(fs.readFileSync(path.join(d, '@.json'), 'utf8'));
    root.begin = begin;
    fs.writeFileSync(path.join(d, '@.json'), JSON.stringify(root));
    if (!complete) fs.rmSync(path.join(d, '@.done.json'));
  }
  return folder;
}

module.exports = { nightlyDumps };
