/* The course's one JupyterLab extension, written by hand (no build step), in two parts:
 *
 * - "./mimeExtension": a renderer for PNG and JPEG outputs that does what JupyterLab's own image
 *   renderer does and, in addition, gives the image the written description stored in the
 *   output's metadata ("image/png": {"alt": ...}) as its alt text, so a screen reader reads what
 *   the figure shows;
 * - "./extension": when a student runs a figure's cell again, the kernel's new figure has no
 *   description; this plugin copies it from the cell's metadata ("alt": a description, or one per
 *   figure in output order, as `dimred-teach execute` does) onto the new output.
 *
 * JupyterLab loads an extension as a webpack module-federation container: this file defines
 * window._JUPYTERLAB[name] with init(shareScope), which receives the modules JupyterLab shares
 * (Lumino's Widget comes from there), and get("./mimeExtension"), which returns the extension.
 */
var _JUPYTERLAB = (window._JUPYTERLAB = window._JUPYTERLAB || {});
(function () {
  "use strict";
  var shareScope = null;

  function sharedModule(name) {
    var versions = shareScope && shareScope[name];
    if (!versions) {
      return Promise.reject(new Error(name + " is not shared by JupyterLab"));
    }
    var keys = Object.keys(versions);
    var loaded = keys.filter(function (key) { return versions[key].loaded; });
    var chosen = (loaded.length ? loaded : keys).sort().pop();
    return Promise.resolve(versions[chosen].get()).then(function (factory) { return factory(); });
  }

  function extensionWith(Widget) {
    class DescribedImage extends Widget {
      constructor(options) {
        super();
        this.mimeType = options.mimeType;
        this.node.dataset.mimeType = options.mimeType;
        this.addClass("jp-RenderedImage");
      }

      renderModel(model) {
        var metadata = model.metadata[this.mimeType] || {};
        var image = document.createElement("img");
        image.src = "data:" + this.mimeType + ";base64," + String(model.data[this.mimeType]);
        if (typeof metadata.alt === "string" && metadata.alt.trim()) {
          image.alt = metadata.alt;
        }
        if (typeof metadata.width === "number") { image.width = metadata.width; }
        if (typeof metadata.height === "number") { image.height = metadata.height; }
        var background = model.metadata.needs_background;
        if (background === "light") { image.classList.add("jp-needs-light-background"); }
        if (background === "dark") { image.classList.add("jp-needs-dark-background"); }
        if (metadata.unconfined === true) { image.classList.add("jp-mod-unconfined"); }
        this.node.textContent = "";
        this.node.appendChild(image);
        return Promise.resolve();
      }
    }

    return {
      id: "dimred-teach-figure-descriptions:images",
      rendererFactory: {
        safe: true,
        mimeTypes: ["image/png", "image/jpeg"],
        defaultRank: 90,
        createRenderer: function (options) { return new DescribedImage(options); }
      },
      rank: 90,
      dataType: "string"
    };
  }

  function describeAgain(cell) {
    var alt = cell.getMetadata ? cell.getMetadata("alt") : undefined;
    var descriptions = typeof alt === "string" ? [alt] : Array.isArray(alt) ? alt : [];
    var outputs = cell.outputs;
    var figure = 0;
    for (var index = 0; index < outputs.length; index++) {
      var output = outputs.get(index);
      if (!output.data["image/png"]) { continue; }
      var text = descriptions[figure++];
      var metadata = output.metadata["image/png"] || {};
      if (typeof text !== "string" || metadata.alt) { continue; }
      var json = output.toJSON();
      json.metadata = Object.assign({}, json.metadata || {}, {"image/png": Object.assign({}, metadata, {alt: text})});
      outputs.set(index, json);  // emits "changed" again, and then every figure has its description
    }
  }

  function pluginWith(notebook) {
    return {
      id: "dimred-teach-figure-descriptions:redrawn-figures",
      autoStart: true,
      requires: [notebook.INotebookTracker],
      activate: function (app, tracker) {
        function watch(cell) {
          if (cell.type !== "code" || !cell.outputs) { return; }
          cell.outputs.changed.connect(function () { describeAgain(cell); });
        }
        tracker.widgetAdded.connect(function (sender, panel) {
          panel.context.ready.then(function () {
            var cells = panel.content.model.cells;
            for (var index = 0; index < cells.length; index++) { watch(cells.get(index)); }
            cells.changed.connect(function (list, change) {
              if (change.type === "add") { change.newValues.forEach(watch); }
            });
          });
        });
      }
    };
  }

  _JUPYTERLAB["dimred-teach-figure-descriptions"] = {
    init: function (scope) {
      shareScope = scope;
      return Promise.resolve();
    },
    get: function (module) {
      if (module === "./mimeExtension") {
        return sharedModule("@lumino/widgets").then(function (widgets) {
          var extension = extensionWith(widgets.Widget);
          return function () { return { __esModule: true, default: extension }; };
        });
      }
      if (module === "./extension") {
        return sharedModule("@jupyterlab/notebook").then(function (notebook) {
          var plugin = pluginWith(notebook);
          return function () { return { __esModule: true, default: plugin }; };
        });
      }
      return Promise.reject(new Error('Module "' + module + '" does not exist in container.'));
    }
  };
})();
