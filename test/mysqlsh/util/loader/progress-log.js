'use strict';
// The load progress file (loader-internals §7): JSON Lines, one event per line. The first line of a
// step means INTERRUPTED, a later `"done": true` line for the same key means DONE. Any entry makes
// the run a resume. `progressFile: ''` turns tracking off; dryRun reads but never writes.
const fs = require('fs');
const { shellThrowable } = require('../../shell-errors');

const WHERE = 'Util.loadDump';

const stepKey = (e) => JSON.stringify([e.op, e.schema || '', e.table || '', e.partition || '',
  e.chunk === undefined ? -1 : e.chunk, e.subchunk === undefined ? -1 : e.subchunk]);

function parseLines(text) {
  return text.split('\n').filter((l) => l.trim()).map((l) => {
    try { return JSON.parse(l); } catch (e) { return null; }
  }).filter(Boolean);
}

class ProgressLog {
  // file: absolute path or null (tracking off).
  constructor({ file, profile, out, dryRun, resetProgress }) {
    this.file = file;
    this.profile = profile;
    this.writable = Boolean(file) && !dryRun;
    this.entries = [];
    this.state = new Map();
    if (!file) return;
    const existing = fs.existsSync(file) ? parseLines(fs.readFileSync(file, 'utf8')) : [];
    if (existing.length && resetProgress) {
      out.note("Load progress file detected for the instance but 'resetProgress' option was enabled. Load progress will be discarded and the whole dump will be reloaded.");
      if (this.writable) fs.rmSync(file, { force: true });
    } else if (existing.length) {
      out.note('Load progress file detected. Load will be resumed from where it was left, assuming no external updates were made.');
      out.note("You may enable the 'resetProgress' option to discard progress for this MySQL instance and force it to be completely reloaded.");
      this.entries = existing;
      for (const e of existing) this.state.set(stepKey(e), e.done ? 'DONE' : 'INTERRUPTED');
    }
    if (this.writable) this.openForAppend();
  }

  openForAppend() {
    try {
      const hadContent = fs.existsSync(this.file) && fs.statSync(this.file).size > 0;
      // A blank line separates the attempts (load_progress_log.h:639-645).
      fs.appendFileSync(this.file, hadContent ? '\n' : '');
    } catch (e) {
      const reason = e.code === 'ENOENT' ? 'No such file or directory' : (e.code === 'EACCES' ? 'Permission denied' : e.message);
      throw shellThrowable(this.profile, 'RuntimeError', `Cannot open file '${this.file}': ${reason}`, undefined, WHERE);
    }
  }

  get resuming() { return this.entries.length > 0; }

  status(step) { return this.state.get(stepKey(step)) || 'PENDING'; }

  isDone(step) { return this.status(step) === 'DONE'; }

  // Throws when the file was written for another server (53027).
  checkServerUuid(uuid) {
    const recorded = this.entries.find((e) => e.op === 'SERVER-UUID' && e.uuid);
    if (recorded && recorded.uuid !== uuid) {
      throw shellThrowable(this.profile, 'RuntimeError',
        `Progress file was created for a server with UUID ${recorded.uuid}, while the target server has UUID: ${uuid}`, 53027, WHERE);
    }
    if (!recorded) this.write({ op: 'SERVER-UUID', done: true, uuid });
  }

  write(entry) {
    const line = { op: entry.op, done: Boolean(entry.done), timestamp: Date.now() };
    for (const [k, v] of Object.entries(entry)) {
      if (k === 'op' || k === 'done' || v === undefined) continue;
      if (k === 'partition' && !v) continue;
      line[k] = v;
    }
    this.state.set(stepKey(line), line.done ? 'DONE' : 'INTERRUPTED');
    if (this.writable) fs.appendFileSync(this.file, JSON.stringify(line) + '\n');
  }

  start(step) { this.write({ ...step, done: false }); }

  done(step, extra = {}) { this.write({ ...step, ...extra, done: true }); }
}

module.exports = { ProgressLog, stepKey };
