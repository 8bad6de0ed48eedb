/* /docs (pbem/api/templates/swagger_ui.html): Swagger UI with the
   operations first. Its own layout opens with the API's description, which
   holds the long error table (pbem/docgen/error_docs.py), so a reader met
   two screens of error codes before the first operation. This layout puts
   the title, then the operations, then the description and the error
   table, then the schemas. */
(function () {
  "use strict";
  var box = document.getElementById("swagger-ui-container");
  if (!box || !window.SwaggerUIBundle) return;

  function OperationsFirstLayout(system) {
    var h = system.React.createElement;
    return {
      components: {
        OperationsFirstLayout: function (props) {
          var get = props.getComponent;
          var Operations = get("operations", true), Info = get("InfoContainer", true), Models = get("Models", true);
          var Errors = get("errors", true), Filter = get("FilterContainer", true), Schemes = get("SchemesContainer", true);
          var Servers = get("ServersContainer", true), Authorize = get("AuthorizeBtnContainer", true);
          var Svg = get("SvgAssets");
          var spec = props.specSelectors;
          var title = spec.info ? spec.info().get("title") : "";
          return h("div", { className: "swagger-ui" },
            Svg ? h(Svg) : null,
            h("div", { className: "information-container wrapper" },
              h("h1", { className: "title", id: "docs-title" }, title),
              h("p", null, "The operations first; after them, ",
                h("a", { href: "#description" }, "the API's description and its error codes"), ", then ",
                h("a", { href: "#schemas" }, "the schemas"), ".")),
            Errors ? h(Errors) : null,
            h("div", { className: "scheme-container" },
              h("section", { className: "schemes wrapper block col-12" },
                Servers ? h(Servers) : null, Schemes ? h(Schemes) : null, Authorize ? h(Authorize) : null)),
            Filter ? h(Filter) : null,
            h("section", { className: "wrapper operations-first", id: "operations" }, h(Operations)),
            h("section", { className: "information-container wrapper", id: "description" }, h(Info)),
            h("section", { className: "wrapper", id: "schemas" }, h(Models)));
        }
      }
    };
  }

  var config = { url: box.dataset.specUrl, dom_id: "#swagger-ui-container" };
  try {
    var extra = JSON.parse(box.dataset.config || "{}");
    Object.keys(extra).forEach(function (k) { config[k] = extra[k]; });
  } catch (e) { /* the defaults */ }
  config.plugins = [OperationsFirstLayout];
  config.layout = "OperationsFirstLayout";
  window.ui = SwaggerUIBundle(config);
})();
