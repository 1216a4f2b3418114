print("daguerre")
