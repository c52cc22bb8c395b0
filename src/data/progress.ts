// A progress bar with a rate and an ETA on stderr (redrawn in place on a terminal, a line per
// tenth otherwise, so CI logs stay short).
export type Progress = (done: number, total: number) => void;

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now();
  let lastTenth = -1;
  return (done, total) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? (total - done) / rate : 0;
    const width = 30;
    const filled = total > 0 ? Math.round((done / total) * width) : width;
    const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}  ${Math.round(rate).toLocaleString('en-US')}/s  ETA ${eta.toFixed(0)}s`;
    if (stream.isTTY) {
      stream.write(`\r${line}${done >= total ? '\n' : ''}`);
      return;
    }
    const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      stream.write(`${line}\n`);
    }
  };
}
