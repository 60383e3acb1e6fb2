"""De-identify (Step 2): remove or pseudonymise the direct identifiers."""

from __future__ import annotations

from functools import partial

import streamlit as st

from core.errors import SecretError
from core.io import table_to_bytes
from core.markup import code_span
from core.release.report import DECRYPT_COMMAND
from core.schema import Role
from core.techniques import encrypt_table
from core.techniques.pseudonymisation import (
    MIN_KEY_BYTES,
    MIN_PASSPHRASE_CHARS,
    passphrase_problem,
)
from ui import data_steps, free_text, guide_examples
from ui.page_errors import error_text
from ui.progress import working
from ui.state import classify, keys, loading, presentation, session, widgets
from ui.state import replay as recipe_replay

STEP2 = "PDPC guide, Step 2 (De-identify your data)"
ANNEX_A = "PDPC guide, Annex A (Pseudonymisation)"

if not loading.require_data() or not classify.require_known_columns():
    st.stop()

st.title("De-identify")
guide_examples.show_workshop_task("De-identify")
presentation.explain(
    "Remove every direct identifier; replace it with a pseudonym only if records must be "
    "linked back to a person or to other data sets later.",
    STEP2,
    training="The guide's Step 2 example removes the names Alex, Bosco and Charlene; if "
    "records must stay linkable, each name gets a unique token (1234, 5678, 5432) and the "
    "identity mapping table Name -> Token is kept securely by the organisation.",
)

replay = recipe_replay.current()
direct = classify.columns_with_role(Role.DIRECT, session.original())
# A free-text column redacted by the recipe is handled in the free-text section below
# (rescan and review), not offered for removal or pseudonymisation again.
pending = [
    c
    for c in classify.columns_with_role(Role.DIRECT, replay.data)
    if c not in replay.mappings
    and c not in replay.linking
    and c not in free_text.redacted_columns()
]
if not direct:
    if classify.roles_confirmed():  # the roles were confirmed: there is simply none
        st.info(
            "This table has no column classified as a direct identifier, so there is "
            "nothing to remove or pseudonymise here (change a role on **Classify**)."
        )
        st.page_link("pages/2_classify.py", label="Review the roles", icon=":material/label:")
    else:
        st.info("No roles are confirmed yet: confirm them on **Classify** first.")
        st.page_link("pages/2_classify.py", label="Go to Classify", icon=":material/label:")
    free_text.section()
    st.stop()
# A redacted free-text column is not handled yet: the rescan and a person's review below
# decide (the release check says the same).
redacted = free_text.redacted_columns()
done = [c for c in direct if c not in pending and c not in redacted]
if done:
    st.caption("Already handled by the recipe: " + ", ".join(map(code_span, done)))
if redacted_direct := [c for c in direct if c in redacted]:
    st.caption(
        "Redacted, to be rescanned and reviewed below: "
        + ", ".join(map(code_span, redacted_direct))
    )

if pending:
    st.markdown("#### Choose what to do with each direct identifier")
    methods = list(data_steps.METHODS)
    choices = {
        column: st.selectbox(
            code_span(column),
            methods,
            index=methods.index("remove"),
            format_func=data_steps.METHODS.get,
            key=f"method_{column}",
        )
        for column in pending
    }
    presentation.explain(
        "Random tokens and double coding keep an identity mapping table for reversal; HMAC "
        "tokens are the same for the same value and key, so tables can be linked.",
        ANNEX_A,
    )
    key_env = "ANON_PSEUDONYM_KEY"
    if "hmac" in choices.values():
        key_env = st.text_input(
            "Environment variable holding the HMAC key (its name starts with ANON_)",
            value=key_env,
            key="key_env",
        ).strip()
        try:
            source = keys.key_source(key_env)
        except SecretError as error:
            st.error(error_text(error), icon=":material/error:")
            source = "invalid"
        if source == "session":
            st.success(
                f"The key typed in this session is used for {code_span(key_env)}. It stays in "
                "this browser session only; the recipe stores only the name."
            )
        elif source == "environment":
            st.success(
                f"{code_span(key_env)} is set. The recipe stores only its name, never the key."
            )
        elif source is None:
            st.warning(
                f"{code_span(key_env)} is not set. Start the app with, e.g., "
                f'`export {key_env}=$(python -c "import secrets; print(secrets.token_hex(32))")`'
                ", or type a key below for this session.",
                icon=":material/key:",
            )
        with st.form("hmac_key_form", clear_on_submit=True):
            typed = st.text_input(
                f"Key (at least {MIN_KEY_BYTES} characters)", type="password", key="hmac_key"
            )
            if st.form_submit_button("Use this key for this session", disabled=source == "invalid"):
                try:
                    keys.set_session_key(key_env, typed)  # this session only; never saved
                except SecretError as error:
                    st.error(error_text(error), icon=":material/error:")
                else:
                    widgets.forget_widget("hmac_key")  # nor kept in the widget's state
                    st.rerun()
        presentation.explain(
            "A typed key is kept in this browser session only (other users of the app never "
            "see it); a key in the app's environment is read when the step runs. Neither is "
            "ever written to the recipe, the report or any file. Protect the key like an "
            "encryption key.",
            ANNEX_A,
        )
    steps = data_steps.deidentify_steps(choices, key_env=key_env)
    if st.button("Add to recipe", key="apply_deidentify", type="primary", disabled=not steps):
        rows = len(replay.data)
        with working(f"Removing and pseudonymising direct identifiers in {rows:,} records..."):
            error = data_steps.add_steps(steps)
        if error:
            st.error(error_text(error), icon=":material/error:")
        else:
            st.rerun()
elif free_text.redacted_columns():
    st.success(
        "Every other direct identifier has been removed or pseudonymised; the "
        "redacted free text is rescanned below.",
        icon=":material/check_circle:",
    )
else:
    st.success(
        "Every direct identifier has been removed or pseudonymised.", icon=":material/check_circle:"
    )

free_text.section()

st.markdown("#### Before and after (first 10 records)")
before, after = data_steps.before_after(session.original(), replay.data, direct)
left, right = st.columns(2)
left.caption("Original")
left.dataframe(before, width="stretch")
right.caption("Current (recipe so far)")
if after.shape[1]:
    right.dataframe(after, width="stretch")
else:
    right.write("All direct identifier columns have been removed.")
presentation.explain("The same records before and after the recipe so far.", STEP2)

tables = [("mapping", c, t) for c, t in replay.mappings.items()]
tables += [("linking", c, t) for c, t in replay.linking.items()]
if tables:
    st.markdown("#### Identity mapping tables")
    st.warning(
        "The identity mapping table permits re-identification: keep it securely and apart "
        "from the de-identified data, never share it with the recipient, and destroy it "
        "for long-term retention. Prefer the encrypted download.",
        icon=":material/lock:",
    )
    presentation.explain(
        "With double coding, the linking table goes to a trusted third party and the "
        "mapping table stays with the organisation.",
        f"{STEP2}; {ANNEX_A}",
    )
for kind, column, table in tables:
    with st.expander(f"{kind.capitalize()} table of {code_span(column)} ({len(table):,} rows)"):
        st.dataframe(table.head(5), hide_index=True)
        st.download_button(
            "Download as plain CSV (unprotected!)",
            data=partial(table_to_bytes, table, "csv"),
            file_name=f"{column}_{kind}.csv",
            mime="text/csv",
            key=f"download_{kind}_{column}",
        )
        passphrase = st.text_input(
            "Passphrase for the encrypted file",
            type="password",
            key=f"passphrase_{kind}_{column}",
            help=f"At least {MIN_PASSPHRASE_CHARS} characters (Step 5).",
        )
        weak = passphrase_problem(passphrase)
        if passphrase and weak:
            st.warning(weak)
        st.download_button(
            "Download encrypted (AES-GCM, scrypt)",
            data=partial(encrypt_table, table, passphrase) if not weak else b"",
            file_name=f"{column}_{kind}.enc",
            mime="application/octet-stream",
            key=f"download_{kind}_encrypted_{column}",
            disabled=weak is not None,
        )
        st.caption(
            "To read it back, put the passphrase in an environment variable NAME and "
            f"run `{DECRYPT_COMMAND}`; give the passphrase separately from the file."
        )
