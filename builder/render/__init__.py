"""Pictures from the game model: counter faces and the map board (one renderer each)."""
