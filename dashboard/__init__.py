"""card_keeper's Streamlit screen (docs/dashboard.md): app.py is the page; db, upload, texts,
charts help."""
