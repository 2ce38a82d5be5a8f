// Module hook for the start-up test: names every npm package a process loads, one line each on stderr.
export async function load(url, context, next) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (match) process.stderr.write(`loaded-package ${match[1]}\n`);
  return next(url, context);
}
