// Run by scripts/pack-check.ts in the project that installed the packed tarballs: the viewer serves its page and
// every asset from the install alone (the page, its script and styles from dist/assets/, uPlot from its dependency),
// so a tarball missing one fails the packaging check rather than a user's browser.
import { startViewer } from "@orphus/roundtable-viewer";

const snapshot = {
  broker: { pid: 1, instance: "smoke", store: "memory", protocol: 3, startedAt: new Date().toISOString() },
  rooms: [],
};
const watch = {
  snapshot,
  onEvent: () => () => undefined,
  onClose: () => () => undefined,
  resnapshot: async () => snapshot,
  peek: async (room) => ({ room, messages: [], more: false }),
  close: () => undefined,
};
const viewer = await startViewer({ watch });
try {
  const origin = new URL(viewer.url).origin;
  for (const path of ["/", "/assets/viewer.js", "/assets/viewer.css", "/assets/uplot.js", "/assets/uplot.css"]) {
    const response = await fetch(`${origin}${path}?token=${viewer.token}`);
    const body = await response.text();
    if (response.status !== 200 || body.length === 0)
      throw new Error(`${path}: ${response.status}, ${body.length} bytes`);
  }
  const refused = await fetch(`${origin}/`);
  if (refused.status !== 403) throw new Error(`no token: ${refused.status}, expected 403`);
  console.log("viewer page and assets served from the tarball install");
} finally {
  await viewer.close();
}
