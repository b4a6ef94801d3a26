'use strict';
// Real replicated topologies on loopback, built from the bundled server (server.js, with-mysql):
// - startReplicaSet({replicas}): a GTID source and N replicas applying from it (SOURCE_AUTO_POSITION);
// - startChain({length}): a chain source → R1 → R2 (startReplicaSet({chain: true})), built with SQL as the rest;
// - startGroup({members}): a single-primary Group Replication group configured with SQL (Shell 9.1's
//   AdminAPI refuses MySQL 9.7), the clone plugin loaded so members can also join by clone.
// - sharedReplicaSet(), sharedGroup(): one of each for a whole test run (stopped by the root hooks).
// Servers start in parallel; stop() tears everything down (data directories included), and a
// process that ends without stopping them (crash, Ctrl-C, kill) shuts them down first.
const fs = require('fs');
const net = require('net');
const { spawnSync } = require('child_process');
const { startServer } = require('./server');

const REPL_USER = 'restore_repl';
const REPL_PASSWORD = 'restore-repl-pw';
const GROUP_NAME = 'aaaaaaaa-3333-4000-8000-00000000a033';

// Servers started here and not stopped yet. If the process ends without stopping them (a crash,
// Ctrl-C, a kill), they are shut down before it goes: a member restarted after a clone belongs to
// no with-mysql, and with-mysql removes a data directory under a mysqld still shutting down.
const live = new Set();
function shutdownLive() {
  for (const s of live) spawnSync('sh', ['-c', `${s.client} -e 'SHUTDOWN'`], { stdio: 'ignore' });
  const end = Date.now() + 30000;
  while ([...live].some((s) => s.pidFile()) && Date.now() < end) spawnSync('sleep', ['0.2']);
  live.clear();
}
let guarded = false;
function guardExit() {
  if (guarded) return;
  guarded = true;
  process.once('exit', shutdownLive);
  for (const [sig, n] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.once(sig, () => { shutdownLive(); process.exit(128 + n); });
  }
}

// A free loopback port (for XCom, whose address is given before the server starts).
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

// TOPOLOGY_TRACE=1 prints how long each step of a start or stop took.
const trace = process.env.TOPOLOGY_TRACE ? (t0, what) => process.stderr.write(`topology: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`) : () => {};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, ms, cond) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await sleep(200);
  }
}

// Starts each server with its options in parallel; if one fails, the others are stopped.
async function startAll(optsList) {
  guardExit();
  const results = await Promise.allSettled(optsList.map((opts) => startServer({ opts })));
  const up = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
  up.forEach((s) => live.add(s));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll(up);
    throw failed.reason;
  }
  return up;
}

async function stopAll(servers) {
  await Promise.all(servers.map(async (s) => {
    try { await s.stop(); } finally { live.delete(s); }
  }));
}

const GTID_OPTS = '--gtid-mode=ON --enforce-gtid-consistency=ON --report-host=127.0.0.1';

// The replication account, created outside the binary log (each member needs it on its own).
async function createReplUser(s, grants = 'REPLICATION SLAVE') {
  await s.query(`SET SESSION sql_log_bin = 0;
    CREATE USER IF NOT EXISTS '${REPL_USER}'@'%' IDENTIFIED BY '${REPL_PASSWORD}';
    GRANT ${grants} ON *.* TO '${REPL_USER}'@'%';
    SET SESSION sql_log_bin = 1`);
}

// Per-member helpers shared by both topologies.
class Topology {
  constructor(members) {
    this.members = members;
    this.startSeconds = null;
  }

  // Every base table of these schemas (as on the first member) → {member uri: {schema.table: rows}}.
  async rowCounts(schemas) {
    const list = [].concat(schemas);
    const tables = await this.members[0].query(
      `SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t FROM information_schema.TABLES
       WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA IN (?) ORDER BY 1, 2`, [list]);
    const out = {};
    for (const m of this.members) {
      const counts = {};
      for (const { s, t } of tables) {
        const q = '`' + s.replace(/`/g, '``') + '`.`' + t.replace(/`/g, '``') + '`';
        counts[`${s}.${t}`] = Number(await m.value(`SELECT COUNT(*) FROM ${q}`).catch(() => -1));
      }
      out[`127.0.0.1:${m.port}`] = counts;
    }
    return out;
  }

  // Schemas other than the system ones, per member: what a test left behind.
  async userSchemas() {
    const out = {};
    for (const m of this.members) {
      const rows = await m.query(`SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA
        WHERE SCHEMA_NAME NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') ORDER BY 1`);
      if (rows.length) out[`127.0.0.1:${m.port}`] = rows.map((r) => r.s);
    }
    return out;
  }

  // Waits until healthy(): replication threads running (they connect a moment after START REPLICA),
  // every member ONLINE.
  async waitHealthy(timeoutMs = 60000) {
    await until(this instanceof Group ? 'every member ONLINE' : 'the replication threads running', timeoutMs,
      () => this.healthy().catch(() => false));
  }

  // True when every member has the same row count for every table of these schemas.
  async rowsEqual(schemas) {
    const counts = Object.values(await this.rowCounts(schemas)).map((c) => JSON.stringify(c));
    return counts.every((c) => c === counts[0]);
  }

  async stop() {
    const t0 = Date.now();
    const ms = this.members;
    this.members = [];
    await this.quiesce(ms).catch(() => {});
    trace(t0, 'replication stopped');
    await stopAll(ms);
    trace(t0, 'servers stopped');
  }
}

class ReplicaSet extends Topology {
  get source() { return this.members[0]; }
  get replicas() { return this.members.slice(1); }

  // Waits until every replica has applied the source's gtid_executed (as of now).
  async waitApplied(timeoutMs = 60000) {
    const gtids = await this.source.value('SELECT @@GLOBAL.gtid_executed AS g');
    const secs = Math.max(1, Math.ceil(timeoutMs / 1000));
    for (const r of this.replicas) {
      const timedOut = Number(await r.value('SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?) AS w', [gtids, secs]));
      if (timedOut) throw new Error(`replica 127.0.0.1:${r.port} did not apply ${gtids} within ${secs} s`);
    }
    return gtids;
  }

  // {uri: {io: 'ON'|…, sql: 'ON'|…, lastError}} for each replica.
  async replicaThreads() {
    const out = {};
    for (const r of this.replicas) {
      const io = await r.query('SELECT SERVICE_STATE AS s, LAST_ERROR_MESSAGE AS e FROM performance_schema.replication_connection_status WHERE CHANNEL_NAME = \'\'');
      const sql = await r.query('SELECT SERVICE_STATE AS s FROM performance_schema.replication_applier_status WHERE CHANNEL_NAME = \'\'');
      const err = await r.query('SELECT LAST_ERROR_MESSAGE AS e FROM performance_schema.replication_applier_status_by_worker WHERE LAST_ERROR_NUMBER <> 0');
      out[`127.0.0.1:${r.port}`] = { io: io[0] && io[0].s, sql: sql[0] && sql[0].s,
        lastError: (io[0] && io[0].e) || (err[0] && err[0].e) || '' };
    }
    return out;
  }

  async threadsRunning() {
    return Object.values(await this.replicaThreads()).every((t) => t.io === 'ON' && t.sql === 'ON');
  }

  async target() { return this.source; }

  async healthy() { return this.members.every((m) => m.alive()) && this.threadsRunning(); }

  // Replicas stop first; the dump threads are then ended (on a chain's middle replicas too), or a
  // shutdown waits ~10 s for them.
  async quiesce(ms) {
    await Promise.all(ms.slice(1).map((r) => r.query('STOP REPLICA').catch(() => {})));
    for (const m of ms) {
      const dumps = await m.query("SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'").catch(() => []);
      for (const d of dumps) await m.query(`KILL ${Number(d.ID)}`).catch(() => {});
    }
  }

  // The server replica i (0-based) applies from: the source, or in a chain the replica before it.
  upstreamOf(i) { return this.chain && i > 0 ? this.replicas[i - 1] : this.source; }
}

// A GTID source and `replicas` replicas applying from it. Replicas run super_read_only as production
// replicas do (an InnoDB ReplicaSet sets it too), unless {readOnlyReplicas: false}. With {chain: true}
// each replica applies from the one before it (source → R1 → R2 …; log_replica_updates is on by default).
async function startReplicaSet({ replicas = 1, readOnlyReplicas = true, chain = false } = {}) {
  const t0 = Date.now();
  const opts = [];
  for (let i = 0; i <= replicas; i++) opts.push(`--server-id=${i + 1} ${GTID_OPTS}${i && readOnlyReplicas ? ' --super-read-only=ON' : ''}`);
  const servers = await startAll(opts);
  const set = new ReplicaSet(servers);
  set.chain = chain;
  trace(t0, 'servers up');
  try {
    // On every server: a chain's middle replicas are sources too.
    await createReplUser(set.source);
    for (const r of chain ? set.replicas.slice(0, -1) : []) {
      await r.query('SET GLOBAL super_read_only = OFF');
      await createReplUser(r);
      if (readOnlyReplicas) await r.query('SET GLOBAL super_read_only = ON');
    }
    for (const [i, r] of set.replicas.entries()) {
      await r.query(`CHANGE REPLICATION SOURCE TO SOURCE_HOST = '127.0.0.1', SOURCE_PORT = ${set.upstreamOf(i).port},
        SOURCE_USER = '${REPL_USER}', SOURCE_PASSWORD = '${REPL_PASSWORD}', SOURCE_AUTO_POSITION = 1,
        GET_SOURCE_PUBLIC_KEY = 1, SOURCE_CONNECT_RETRY = 1; START REPLICA`);
    }
    trace(t0, 'replicas started');
    await until('replicas connected', 60000, async () => {
      for (const up of new Set(set.replicas.map((r, i) => set.upstreamOf(i)))) {
        const expected = set.replicas.filter((r, i) => set.upstreamOf(i) === up).length;
        if ((await up.query('SHOW REPLICAS')).length !== expected) return false;
      }
      return set.threadsRunning();
    });
  } catch (e) {
    await set.stop();
    throw e;
  }
  set.startSeconds = (Date.now() - t0) / 1000;
  return set;
}

class Group extends Topology {
  constructor(members, xcomPorts) {
    super(members);
    this.xcomPorts = xcomPorts;
  }

  // [{host, port, state, role, server}] as the first reachable member sees the group.
  async groupMembers() {
    for (const m of this.members) {
      const rows = await m.query(`SELECT MEMBER_HOST AS host, MEMBER_PORT AS port, MEMBER_STATE AS state, MEMBER_ROLE AS role
        FROM performance_schema.replication_group_members ORDER BY MEMBER_PORT`).catch(() => null);
      if (rows && rows.length) {
        return rows.map((r) => ({ ...r, port: Number(r.port), server: this.members.find((s) => s.port === Number(r.port)) }));
      }
    }
    return [];
  }

  async allOnline() {
    const g = await this.groupMembers();
    return g.length === this.members.length && g.every((m) => m.state === 'ONLINE');
  }

  async waitOnline(timeoutMs = 120000) {
    await until(`${this.members.length} members ONLINE`, timeoutMs, () => this.allOnline());
  }

  async primary() {
    const p = (await this.groupMembers()).find((m) => m.role === 'PRIMARY');
    return p ? p.server : null;
  }

  async target() { return this.primary(); }

  async healthy() { return this.allOnline(); }

  async secondaries() {
    return (await this.groupMembers()).filter((m) => m.role === 'SECONDARY').map((m) => m.server);
  }

  // Waits until every member has applied the primary's gtid_executed (as of now).
  async waitApplied(timeoutMs = 60000) {
    const p = await this.primary();
    const gtids = await p.value('SELECT @@GLOBAL.gtid_executed AS g');
    const secs = Math.max(1, Math.ceil(timeoutMs / 1000));
    for (const m of this.members) {
      if (m === p) continue;
      const timedOut = Number(await m.value('SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?) AS w', [gtids, secs]));
      if (timedOut) throw new Error(`member 127.0.0.1:${m.port} did not apply ${gtids} within ${secs} s`);
    }
    return gtids;
  }

  // Joins a member that is not in the group (again). With {clone: donor} it first takes a clone of
  // the donor's data (CLONE INSTANCE: the clone recovery of AdminAPI's addInstance, by hand); the
  // clone ends with mysqld shutting down to restart on the cloned data, which nothing supervises
  // here, so it is started again before it joins.
  async join(m, { clone = null } = {}) {
    if (clone) await cloneInto(m, clone);
    await m.query(`START GROUP_REPLICATION USER = '${REPL_USER}', PASSWORD = '${REPL_PASSWORD}'`);
  }

  // Every member leaves the group (secondaries first): standalone servers with the data they had.
  async dissolve() {
    await this.quiesce(this.members);
  }

  async memberState(m) {
    return m.value('SELECT MEMBER_STATE AS s FROM performance_schema.replication_group_members WHERE MEMBER_ID = @@server_uuid')
      .catch(() => null);
  }

  // Bootstraps the group on this member (it becomes the primary).
  async bootstrap(m) {
    await m.query(`SET GLOBAL group_replication_bootstrap_group = ON;
      START GROUP_REPLICATION USER = '${REPL_USER}', PASSWORD = '${REPL_PASSWORD}';
      SET GLOBAL group_replication_bootstrap_group = OFF`);
    await until(`127.0.0.1:${m.port} to bootstrap the group`, 60000, async () => (await this.memberState(m)) === 'ONLINE');
  }

  // Secondaries leave first, then the primary: the group ends cleanly.
  async quiesce(ms) {
    const p = await this.primary().catch(() => null);
    await Promise.all(ms.filter((m) => m !== p).map((m) => m.query('STOP GROUP_REPLICATION').catch(() => {})));
    if (p) await p.query('STOP GROUP_REPLICATION').catch(() => {});
  }
}

// Replaces m's data with a clone of donor's, then starts m again (a clone restarts mysqld).
async function cloneInto(m, donor) {
  await m.query(`SET GLOBAL clone_valid_donor_list = '127.0.0.1:${donor.port}'`);
  try {
    await m.query(`CLONE INSTANCE FROM '${REPL_USER}'@'127.0.0.1':${donor.port} IDENTIFIED BY '${REPL_PASSWORD}'`);
  } catch (e) {
    // 3707: "Restart server failed (mysqld is not managed by supervisor process)": the data is cloned.
    if (e.errno !== 3707) throw e;
  }
  await m.conn.end().catch(() => {});
  await until(`127.0.0.1:${m.port} to shut down after its clone`, 120000, async () => !m.alive() && !m.pidFile());
  await m.start();
}

// Servers ready for a group (plugins loaded, addresses set) but not in one yet.
async function startGroupServers(members) {
  const xcomPorts = [];
  for (let i = 0; i < members; i++) xcomPorts.push(await freePort());
  const seeds = xcomPorts.map((p) => `127.0.0.1:${p}`).join(',');
  const opts = xcomPorts.map((p, i) => [`--server-id=${i + 1}`, GTID_OPTS,
    '--plugin-load-add=group_replication.so', '--plugin-load-add=mysql_clone.so',
    `--group-replication-group-name=${GROUP_NAME}`, '--group-replication-start-on-boot=OFF',
    `--group-replication-local-address=127.0.0.1:${p}`, `--group-replication-group-seeds=${seeds}`,
    '--group-replication-single-primary-mode=ON', '--group-replication-recovery-get-public-key=ON',
    // Members on one machine: a faster verdict on a member that left.
    '--group-replication-member-expel-timeout=0'].join(' '));
  const servers = await startAll(opts);
  const group = new Group(servers, xcomPorts);
  try {
    for (const s of servers) await createReplUser(s, 'REPLICATION SLAVE, BACKUP_ADMIN, CLONE_ADMIN, GROUP_REPLICATION_STREAM, CONNECTION_ADMIN');
  } catch (e) {
    await group.stop();
    throw e;
  }
  return group;
}

// A single-primary group of `members` servers, all ONLINE; the first one is the primary.
async function startGroup({ members = 3, join = true } = {}) {
  const t0 = Date.now();
  const group = await startGroupServers(members);
  trace(t0, 'servers up');
  try {
    if (join) {
      await group.bootstrap(group.members[0]);
      trace(t0, 'group bootstrapped');
      for (const m of group.members.slice(1)) { await group.join(m); trace(t0, `127.0.0.1:${m.port} joining`); }
      await group.waitOnline();
    }
  } catch (e) {
    await group.stop();
    throw e;
  }
  group.startSeconds = (Date.now() - t0) / 1000;
  return group;
}

// One source with a replica and one three-member group for a whole test run: started on first use,
// replaced if a test left one unhealthy, stopped by the root hooks (stopShared) at the end, which
// fail the run if a test left a schema on them or a data directory stayed behind. A test using
// them drops what it made and waits until the members applied that (waitApplied).
const shared = new Map(); // kind → promise of a topology
const SHARED = { replicaSet: () => startReplicaSet({ replicas: 1 }), group: () => startGroup({ members: 3 }) };

async function sharedTopology(kind) {
  const had = shared.get(kind);
  if (had) {
    const t = await had.catch(() => null);
    // A moment's grace: a test may have just restarted replication.
    if (t && await t.waitHealthy(15000).then(() => true, () => false)) return t;
    shared.delete(kind);
    if (t) await t.stop().catch(() => {});
  }
  const p = SHARED[kind]();
  shared.set(kind, p);
  return p;
}

async function stopShared() {
  const problems = [];
  const t0 = Date.now();
  const kinds = [...shared.keys()];
  for (const [kind, p] of shared) {
    const t = await p.catch(() => null);
    if (!t) continue;
    const left = await t.userSchemas().catch((e) => ({ error: e.message }));
    if (Object.keys(left).length) problems.push(`${kind}: schemas left behind: ${JSON.stringify(left)}`);
    const dirs = t.members.map((m) => m.datadir);
    await t.stop();
    const stayed = dirs.filter((d) => fs.existsSync(d));
    if (stayed.length) problems.push(`${kind}: data directories not removed: ${stayed.join(', ')}`);
  }
  shared.clear();
  if (kinds.length) process.stdout.write(`  (shared topologies stopped in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${kinds.join(', ')})\n`);
  if (problems.length) throw new Error(`The test run left the shared topologies changed: ${problems.join('; ')}`);
}

// A chain source → R1 → R2 (… `length` replicas, each applying from the one before it).
function startChain({ length = 2 } = {}) { return startReplicaSet({ replicas: length, chain: true }); }

module.exports = { startReplicaSet, startChain, startGroup, sharedReplicaSet: () => sharedTopology('replicaSet'),
  sharedGroup: () => sharedTopology('group'), stopShared, REPL_USER, GROUP_NAME };
