"""The card database of sdbdb (docs/database.md): runs from sdbench logs
kept in SQLite (a file) or PostgreSQL (a postgresql:// URL).

    with Store.open("cards.db") as st:
        st.add_log("run.log")               # [Added]
        queries.cards(st.db)
"""
from .backend import DbError, is_url  # noqa: F401
from .store import Added, Store  # noqa: F401
