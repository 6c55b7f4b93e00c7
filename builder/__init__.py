"""hexforge's builder: sources -> game model -> VASSAL module, map image and counter art."""
