// The search page's summaries quote each page's text, formulas included as TeX (\(\mathbf B\)).
// Typeset them with the site's own MathJax, as the pages themselves are, once the results are in.
document.addEventListener("DOMContentLoaded", () => {
  const results = document.getElementById("search-results");
  if (!results) return;
  window.MathJax = {
    tex: {inlineMath: [["\\(", "\\)"]], displayMath: [["\\[", "\\]"]]},
    options: {enableMenu: false},
    startup: {typeset: false},
  };
  const script = document.createElement("script");
  script.src = document.documentElement.dataset.content_root + "_static/mathjax/tex-chtml.js";
  document.head.appendChild(script);
  let pending = null;
  const typeset = () => {
    pending = null;
    if (!(window.MathJax && MathJax.typesetPromise)) {
      pending = setTimeout(typeset, 200);
      return;
    }
    observer.disconnect();
    MathJax.typesetPromise([results]).finally(() => observer.observe(results, {childList: true, subtree: true}));
  };
  const observer = new MutationObserver(() => {
    if (pending === null) pending = setTimeout(typeset, 100);
  });
  observer.observe(results, {childList: true, subtree: true});
});
