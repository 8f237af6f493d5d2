-- Fire (R8.2): fill an empty square with fire, or remove water.
function play(ctx)
  local empty = ctx:squares{ empty = true }
  local pools = ctx:squares{ terrain = "water" }
  local choices = {}
  if ctx:supply("fire") > 0 and #empty > 0 then choices[#choices + 1] = "burn" end
  if #pools > 0 then choices[#choices + 1] = "dry" end
  if #choices == 0 then
    ctx:log("Fire: no empty square to burn and no water to dry up")
    return
  end
  if ctx:ask_option("Fire: set a square on fire or dry up water?", choices) == "burn" then
    ctx:place_terrain(ctx:ask_square("Fire: which empty square?", empty), "fire")
  else
    ctx:remove_terrain(ctx:ask_square("Fire: which water?", pools))
  end
end
