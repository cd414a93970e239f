"""The floor of bench/dashboard_timing.py --floor: the least page Streamlit can draw (one metric,
one line), so a first view's time splits into Streamlit's own cost and the dashboard's."""

import streamlit as st

st.metric("turns", "0")
st.write("ready")
