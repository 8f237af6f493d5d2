-- Fire (R8.2): fill an empty square with fire, or remove water.
local EMPTY, POOLS = { empty = true }, { terrain = "water" }

function play(ctx)
  local choices = {}
  if ctx:supply("fire") > 0 and ctx:count_squares(EMPTY) > 0 then choices[#choices + 1] = "burn" end
  if ctx:count_squares(POOLS) > 0 then choices[#choices + 1] = "dry" end
  if #choices == 0 then
    ctx:log("Fire: no empty square to burn and no water to dry up")
    return
  end
  if ctx:ask_option("Fire: set a square on fire or dry up water?", choices) == "burn" then
    ctx:place_terrain(ctx:ask_square_where("Fire: which empty square?", EMPTY), "fire")
  else
    ctx:remove_terrain(ctx:ask_square_where("Fire: which water?", POOLS))
  end
end
