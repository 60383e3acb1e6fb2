"""The anchor of bench_dashboard_browser.py: a bare Streamlit app that reads the CSV named
by $BENCH_CSV with pandas' pyarrow reader and shows its first 100 rows, as the Data page
does, with nothing else (no checks, no workspace, no caching)."""

import os

import pandas as pd
import streamlit as st

table = pd.read_csv(os.environ["BENCH_CSV"], engine="pyarrow")
st.dataframe(table.head(100), width="stretch")
