"""Online play: the game server (FastAPI on uvicorn) and the browser pages it serves."""
