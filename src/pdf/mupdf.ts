// mupdf, with its log silenced. Its parser warnings can quote bytes of the document, and no
// document content may reach a log: every thread that loads mupdf through this module (the
// API, its analysis workers, the sidecar's render workers) gets the setting once, and a
// command that never opens a PDF (`keys list`) never pays for compiling mupdf's WebAssembly.
import * as mupdf from "mupdf";

mupdf.setLog(() => {});

export { mupdf };
