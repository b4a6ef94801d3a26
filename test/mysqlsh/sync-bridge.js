'use strict';
// Synchronous calls into an async worker: mysqlsh's APIs are synchronous (runSql, the Python
// companion), Node's drivers are not. The main thread posts a request and sleeps on
// Atomics.wait until the worker has answered on a MessagePort.
const path = require('path');
const { Worker, MessageChannel, receiveMessageOnPort } = require('worker_threads');

const TIMEOUT_MS = 60 * 60 * 1000;

class SyncBridge {
  constructor() {
    this.flag = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(path.join(__dirname, 'bridge-worker.js'), {
      workerData: { flag: this.flag, port: port2 },
      transferList: [port2],
    });
    this.worker.unref();
    this.closed = false;
  }

  call(op, args) {
    if (this.closed) throw new Error('stand-in bridge is closed');
    Atomics.store(this.flag, 0, 0);
    this.worker.postMessage({ op, args });
    const r = Atomics.wait(this.flag, 0, 0, TIMEOUT_MS);
    if (r === 'timed-out') throw new Error(`stand-in bridge: no answer to ${op} within ${TIMEOUT_MS} ms`);
    const msg = receiveMessageOnPort(this.port);
    if (!msg) throw new Error(`stand-in bridge: ${op} answered nothing`);
    const { error, result } = msg.message;
    if (error) throw Object.assign(new Error(error.message), error);
    return result;
  }

  close() {
    if (this.closed) return;
    try { this.call('shutdown', {}); } catch (e) { /* worker already gone */ }
    this.closed = true;
    this.worker.terminate();
  }
}

module.exports = { SyncBridge };
