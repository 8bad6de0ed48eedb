"""The generated documentation, each from the registry it describes, with a
``--check`` the tests run: the error codes (``error_docs``: README, docs/errors.md,
the OpenAPI document's ``x-error-codes``; ``make errors``), the games'
views (``view_docs``: docs/views/; ``make docs``) and the settings table
(``settings_docs``: README; ``make settings``)."""
