"""card_keeper's Streamlit screen (SPEC §7): app.py is the page; db, upload, texts, charts help."""
