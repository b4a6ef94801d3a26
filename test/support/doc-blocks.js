'use strict';
// The examples and links of README.md and docs/*.md (docs/tests.md, "Examples in the docs"): every
// fenced block of sh or js says `run` (test/shell/docs-examples.test.js runs it with the real Shell)
// or `norun` (checked without running: it parses, its restore options exist).
const fs = require('fs');
const path = require('path');
const { ROOT } = require('./real');

// README.md and every page under docs/, as paths relative to the checkout.
function docFiles() {
  const dir = path.join(ROOT, 'docs');
  const pages = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.md$/.test(f)).sort().map((f) => 'docs/' + f) : [];
  return ['README.md', ...pages];
}

const FENCE = /^(\s*)(```+)\s*(.*)$/;

// The fenced blocks of a markdown text → [{line, lang, mode ('run' | 'norun' | null), code, prints}].
// A block's lines lose the fence's indentation (a block inside a list item). `# prints: X` (sh) or
// `// prints: X` (js) lines name text the run's output must contain.
function blocks(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]);
    if (!m) continue;
    const indent = m[1].length;
    const words = m[3].trim().split(/\s+/).filter(Boolean);
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const end = FENCE.exec(lines[j]);
      if (end && end[2].length >= m[2].length && !end[3].trim()) break;
      body.push(lines[j].slice(Math.min(indent, (/^\s*/.exec(lines[j]) || [''])[0].length)));
    }
    const code = body.join('\n') + '\n';
    const mode = words.indexOf('run') > 0 ? 'run' : words.indexOf('norun') > 0 ? 'norun' : null;
    const prints = [...code.matchAll(/^\s*(?:#|\/\/) prints: (.+)$/gm)].map((p) => p[1].trim());
    out.push({ line: i + 1, lang: words[0] || '', mode, code, prints });
    i = j;
  }
  return out;
}

// The text outside fenced blocks and inline code (where a link is a link).
function prose(text) {
  let inFence = false;
  return text.split('\n').map((l) => {
    if (FENCE.test(l)) { inFence = !inFence; return ''; }
    return inFence ? '' : l.replace(/`[^`]*`/g, '');
  }).join('\n');
}

// GitHub's anchor of a heading: lower case, punctuation out, spaces to hyphens; repeats get -1, -2.
function anchors(text) {
  const seen = new Map();
  const out = new Set();
  const lines = text.split('\n');
  let inFence = false;
  lines.forEach((l) => {
    if (FENCE.test(l)) { inFence = !inFence; return; }
    const m = !inFence && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(l);
    if (!m) return;
    const base = m[1].replace(/<[^>]+>/g, '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const n = seen.get(base) || 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  });
  return out;
}

// The relative links of a markdown text: [text](target) and [text]: target → [{target, line}].
function links(text) {
  const out = [];
  prose(text).split('\n').forEach((l, i) => {
    for (const m of l.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1], line: i + 1 });
    const ref = /^\s*\[[^\]]+\]:\s+(\S+)/.exec(l);
    if (ref) out.push({ target: ref[1], line: i + 1 });
  });
  return out.filter((k) => !/^[a-z][a-z0-9+.-]*:/i.test(k.target)); // http:, mailto: … are not ours to check
}

// The `mysqlsh … -- restore <member> <args>` command lines of a sh block (continuation lines
// joined) → [{member, options: ['latest', 'preset', …]}] (the Shell's camelCase names).
function restoreCommands(code) {
  const joined = code.replace(/\\\n/g, ' ');
  const out = [];
  for (const line of joined.split('\n')) {
    const m = /\bmysqlsh\b.*?\s--\s+restore\s+([a-z-]+)(.*)$/.exec(line.replace(/\s#.*$/, ''));
    if (!m) continue;
    const options = [...m[2].matchAll(/(?:^|\s)--([a-z][a-z0-9-]*)/g)].map((o) => o[1].replace(/-([a-z])/g, (x, c) => c.toUpperCase()));
    out.push({ member: m[1], options });
  }
  return out;
}

module.exports = { docFiles, blocks, anchors, links, restoreCommands, prose };
