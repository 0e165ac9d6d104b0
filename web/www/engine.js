// The page's handle on a search worker: one run at a time, its messages passed to the
// caller's handlers; Stop asks the worker to end the run (it prints what `xcover dlx3`
// prints on an interrupt) and, if the worker does not answer within STOP_GRACE_MS (a
// long step that does not yield), ends the worker itself.

const STOP_GRACE_MS = 120;

export class Engine {
  constructor() {
    this.worker = null;
    this.finish = null;
  }

  spawn() {
    this.worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module' });
  }

  // Runs `message` (see worker.js); `on.output`, `on.counters` get the stream's messages;
  // resolves with the 'done' message, or {failed, message} when the worker fails.
  run(message, on = {}) {
    if (this.finish) throw new Error('a run is going on');
    if (!this.worker) this.spawn();
    return new Promise((resolve) => {
      this.finish = (result) => {
        this.finish = null;
        clearTimeout(this.grace);
        resolve(result);
      };
      this.worker.onmessage = ({ data }) => {
        if (data.type === 'output') on.output && on.output(data);
        else if (data.type === 'counters') on.counters && on.counters(data);
        else if (data.type === 'done') this.finish(data);
        else if (data.type === 'failed') this.finish({ failed: true, message: data.message });
      };
      this.worker.onerror = (e) => this.finish({ failed: true, message: e.message || 'the worker failed' });
      this.worker.postMessage(message);
    });
  }

  get running() {
    return this.finish !== null;
  }

  stop() {
    if (!this.finish) return;
    this.worker.postMessage({ cmd: 'stop' });
    this.grace = setTimeout(() => {
      if (!this.finish) return;
      this.worker.terminate();
      this.worker = null;
      this.finish({ stopped: true, killed: true });
    }, STOP_GRACE_MS);
  }
}
