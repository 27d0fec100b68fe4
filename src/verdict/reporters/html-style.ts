/**
 * The HTML report's style sheet, inlined in the page: the file must open
 * offline, so no font, image or sheet is fetched (the page's
 * Content-Security-Policy forbids it anyway).
 */
export const HTML_REPORT_STYLE = `
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --warn: #9a6700; --line: #d0d7de; --code: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --pass: #3fb950; --fail: #ff7b72; --skip: #8b949e; --warn: #d29922; --line: #30363d; --code: #161b22; } }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 1rem 1.5rem 3rem; max-width: 80rem; }
h1 { font-size: 1.6rem; margin: 0.5rem 0; }
h2 { font-size: 1.3rem; border-bottom: 1px solid var(--line); padding-bottom: 0.2rem; margin-top: 2.2rem; }
h3 { font-size: 1.1rem; margin: 1.2rem 0 0.4rem; }
h4 { font-size: 0.95rem; margin: 0.8rem 0 0.2rem; }
code, pre { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 4px; padding: 0.5rem 0.7rem; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.2rem 0; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid var(--line); padding: 0.25rem 0.55rem; text-align: left; vertical-align: top; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0.5rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.passed, .covered { color: var(--pass); }
.failed, .uncovered { color: var(--fail); font-weight: 600; }
.skipped, .none { color: var(--skip); }
.warning { color: var(--warn); }
.verdict { text-transform: uppercase; }
table.counts td { font-size: 1.3rem; text-align: center; min-width: 5rem; }
ol.toc li { margin: 0.15rem 0; }
article.cause { border-left: 4px solid var(--fail); padding: 0.1rem 0 0.4rem 1rem; margin: 1rem 0 1.6rem; }
article.cause-warning { border-left-color: var(--warn); }
details.finding-line > .finding { margin-left: 1.2rem; }
.finding { margin: 0.6rem 0 1rem; }
blockquote.statement { border-left: 3px solid var(--line); margin: 0.4rem 0; padding: 0.1rem 0.8rem; }
td.statement { max-width: 36rem; }
.tags { color: var(--skip); margin: 0; }
details > summary { cursor: pointer; }
@media print { details { display: block; } a { color: inherit; text-decoration: none; } }
`;
