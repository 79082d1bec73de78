"""dkw_app/streamlit_main.py: the server's launcher imports the pages' libraries while it starts."""
from __future__ import annotations

import sys


def test_warm_imports_load_the_modules_in_a_daemon_thread(monkeypatch):
    from dkw_app import streamlit_main

    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    thread = streamlit_main.warm_imports(("colorsys",))
    thread.join(timeout=30)
    assert thread.daemon and not thread.is_alive()
    assert "colorsys" in sys.modules


def test_a_module_that_fails_to_import_is_left_to_the_page():
    from dkw_app import streamlit_main

    thread = streamlit_main.warm_imports(("dkw_no_such_module", "colorsys"))
    thread.join(timeout=30)
    assert not thread.is_alive()  # no exception escapes the thread; the page's own import reports it


def test_the_server_warms_the_pages_one_door(monkeypatch):
    from dkw_app import streamlit_main

    started: list[tuple[str, ...]] = []
    monkeypatch.setattr(streamlit_main, "warm_imports", lambda modules=streamlit_main.WARM_MODULES: started.append(modules))
    import streamlit.web.cli
    from streamlit.runtime.pages_manager import PagesManager

    monkeypatch.setattr(streamlit.web.cli, "main", lambda **kw: None)
    monkeypatch.setattr(PagesManager, "uses_pages_directory", PagesManager.uses_pages_directory)  # restored after
    streamlit_main.main()
    assert started == [streamlit_main.WARM_MODULES] and "dkw_app.backend" in streamlit_main.WARM_MODULES
