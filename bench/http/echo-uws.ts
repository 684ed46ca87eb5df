// Bare uWebSockets.js echo server: the throughput ceiling the MCP server is compared against (no parsing, no MCP).
// Bench files may import uWS directly; in src/ only src/transport may. Prints "LISTENING <port>" when ready.
import uWS from 'uWebSockets.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? '0');

const app = uWS.App();
app.post('/*', (res) => {
  // uWS contract: onAborted before any async work, copy chunks (the ArrayBuffer is reused after the callback).
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  const chunks: Buffer[] = [];
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(chunk.slice(0)));
    if (!isLast || aborted) return;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    res.cork(() => {
      res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json; charset=utf-8').end(body);
    });
  });
});
app.any('/*', (res) => {
  res.writeStatus('404 Not Found').end();
});
app.listen(host, port, (listenSocket) => {
  if (!listenSocket) {
    console.error(`echo-uws: cannot listen on ${host}:${port}`);
    process.exit(1);
  }
  console.log(`LISTENING ${uWS.us_socket_local_port(listenSocket as unknown as uWS.us_socket)}`);
});
