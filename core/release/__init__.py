"""Everything a release goes through before it leaves the workbench (PDPC guide, Steps 4–5).

- :mod:`core.release.gate`: may this table leave labelled "anonymised"? (one
  ``check_release``), with :mod:`~core.release.column_judges`,
  :mod:`~core.release.backstops` and :mod:`~core.release.kept_identifiers` judging what
  the released table still shows, :mod:`~core.release.targets` the privacy-model targets
  of the recipe's ``targets:``, and :mod:`~core.release.inputs` the parameter groups the
  gate, the report and the record take;
- :mod:`core.release.words`: the use cases and the not-anonymised mark, known before any work;
- :mod:`core.release.report`: the report of one release, and
  :mod:`~core.release.report_files` its Markdown and JSON texts, sign-off and identity table;
- :mod:`core.release.bundle`: the recipient's bundle and the internal archive
  (:mod:`~core.release.recipient_values` holds rare values back from the recipient's recipe,
  :mod:`~core.release.bundle_reader` reads a bundle someone sent);
- :mod:`core.release.record`: the release recorded in the workspace before any file
  leaves, and :mod:`~core.release.reproduce` making a recorded release again (``verify``);
- :mod:`core.release.pipeline`: the release as the command line and the dashboard make it.

Nothing is re-exported here: import from the module that owns a name.
"""
