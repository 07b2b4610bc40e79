// A display formula wider than the page scrolls sideways (the theme gives it overflow-x: auto),
// at 1280 px on a few pages and on most pages of a phone. A keyboard user must be able to
// reach it to scroll it (WCAG 2.1.1; axe-core's scrollable-region-focusable), so every
// display formula takes a place in the tab order once MathJax has typeset the page.
document.addEventListener("DOMContentLoaded", () => {
  const mark = () => document.querySelectorAll('mjx-container[display="true"]:not([tabindex])')
    .forEach(formula => formula.setAttribute("tabindex", "0"));
  const whenTypeset = tries => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(mark);
    } else if (tries > 0) {
      setTimeout(() => whenTypeset(tries - 1), 100);
    }
  };
  whenTypeset(100);
});
